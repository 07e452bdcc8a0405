/**
 * Scores the parsers against a folder of real captured pages kept outside the repository:
 * `pnpm check:real-pages DIR` (DIR holds `pages/<id>.html` + `pages/<id>.json`; the JSON format is
 * described in docs/data.md, "Checking against real pages"). Prints a table per page and the
 * totals docs/data.md records. Nothing here knows any page: the expected values are the folder's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BLOCK_SCAN_CHARS, parseSearchPage, readProductPage, type ProductDetails, type SearchItem } from '../packages/marketplace/src/index.ts';
import { classifyResponse } from '../services/crawler-worker/src/features/fetching/index.ts';
import { chromeIn } from './real-pages/chrome.ts';
import { compareProduct, type FieldCheck } from './real-pages/compare.ts';
import type { PageCase } from './real-pages/page-case.ts';
import { type OffersCase, scoreOffersCase } from './real-pages/offers-score.ts';
import { type SellerCase, scoreSellerCase } from './real-pages/seller-score.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: pnpm check:real-pages DIR   (DIR/pages/<id>.html with <id>.json beside it)');
  process.exit(2);
}
const pagesDir = join(resolve(dir), 'pages');
const ids = readdirSync(pagesDir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length))
  .sort();

interface Totals {
  fields: number;
  fieldsRight: number;
  searchPrices: number;
  searchPricesRight: number;
  blockPages: number;
  blockPagesBlocked: number;
  blockReasonsRight: number;
  chargedWrongly: number;
  records: number;
  recordsWithChrome: number;
  choiceClaims: number;
  choiceShown: number;
  productRecords: number;
  productFieldsFilled: number;
  storefronts: Set<string>;
}
const totals: Totals = {
  fields: 0,
  fieldsRight: 0,
  searchPrices: 0,
  searchPricesRight: 0,
  blockPages: 0,
  blockPagesBlocked: 0,
  blockReasonsRight: 0,
  chargedWrongly: 0,
  records: 0,
  recordsWithChrome: 0,
  choiceClaims: 0,
  choiceShown: 0,
  productRecords: 0,
  productFieldsFilled: 0,
  storefronts: new Set(),
};

const originOf = (storefront: string): string => `https://www.${storefront}`;
const filled = (value: unknown): boolean =>
  value !== undefined &&
  value !== '' &&
  !(Array.isArray(value) && value.length === 0) &&
  !(typeof value === 'object' && value !== null && Object.keys(value).length === 0);

/** The crawler's verdict on a response, before any parsing: a block, a failed status, or a page to read. */
function verdictOf(page: PageCase, html: string): { kind: 'page' } | { kind: 'blocked'; reason: string } | { kind: 'error'; detail: string } {
  const verdict = classifyResponse({ status: page.status ?? 200, html: html.slice(0, BLOCK_SCAN_CHARS), headers: page.headers ?? {} }, Date.now());
  if (verdict.kind === 'ok') return { kind: 'page' };
  if (verdict.kind === 'retry' && verdict.reason === 'blocked') return { kind: 'blocked', reason: verdict.blockKind ?? verdict.detail };
  return { kind: 'error', detail: verdict.detail };
}

function printTable(id: string, page: PageCase, outcome: string, rows: FieldCheck[]): void {
  console.log(`\n### ${id} (${page.storefront}${page.year ? `, ${page.year}` : ''}): ${outcome}\n`);
  if (rows.length === 0) return;
  console.log('| field | expected | read | |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.field} | ${cell(row.expected)} | ${cell(row.actual)} | ${row.right ? 'ok' : '**wrong**'} |`);
}

function cell(value: unknown): string {
  const text = value === undefined ? '—' : JSON.stringify(value);
  return (text.length > 70 ? `${text.slice(0, 67)}…` : text).replace(/\|/g, '\\|');
}

function countChrome(id: string, records: readonly object[]): string[] {
  const found: string[] = [];
  for (const record of records) {
    totals.records += 1;
    const hits = chromeIn(record);
    if (hits.length > 0) {
      totals.recordsWithChrome += 1;
      found.push(...hits.map((hit) => `${hit.path}: ${JSON.stringify(hit.value.slice(0, 80))} (${hit.why})`));
    }
  }
  if (found.length > 0) console.log(`\n${id}: interface or markup text in a field:\n${found.map((f) => `- ${f}`).join('\n')}`);
  return found;
}

/** Fields right per page kind scored by its own module (offers, seller). */
const kindTotals: Record<string, { right: number; total: number }> = {};
let excluded = 0;
for (const id of ids) {
  const page = JSON.parse(readFileSync(join(pagesDir, `${id}.json`), 'utf8')) as PageCase;
  if (page.excluded !== undefined) {
    excluded += 1;
    console.log(`\n### ${id}: not scored (${page.excluded})`);
    continue;
  }
  const html = readFileSync(join(pagesDir, `${id}.html`), 'utf8');
  totals.storefronts.add(page.storefront);
  const kindCase = page as unknown as OffersCase | SellerCase | { kind?: undefined };
  if (kindCase.kind === 'offers' || kindCase.kind === 'seller') {
    const { recognized, rows } = kindCase.kind === 'offers' ? scoreOffersCase(html, kindCase) : scoreSellerCase(html, kindCase);
    const tally = (kindTotals[kindCase.kind] ??= { right: 0, total: 0 });
    tally.right += rows.filter((r) => r.right).length;
    tally.total += rows.length;
    printTable(
      id,
      page,
      `${kindCase.kind}: ${recognized ? 'recognised' : 'not recognised'}, ${rows.filter((r) => r.right).length} of ${rows.length} right`,
      rows,
    );
    continue;
  }
  const expected = page.expected;
  const verdict = verdictOf(page, html);
  const options = { origin: originOf(page.storefront), marketplace: page.storefront };

  if ('blocked' in expected && expected.blocked) {
    totals.blockPages += 1;
    let outcome: string;
    let success = false;
    if (verdict.kind === 'blocked') outcome = `blocked (${verdict.reason})`;
    else if (verdict.kind === 'error') outcome = `failed (${verdict.detail})`;
    else if (page.requested.kind === 'product') {
      const reading = readProductPage(html, { ...options, asin: page.requested.asin });
      success = reading.recognized;
      outcome = success ? `**taken as the product page of ${reading.product.asin}**` : 'unrecognized_page';
    } else {
      const reading = parseSearchPage(html, { ...options, keyword: page.requested.keyword ?? '', page: 1 });
      success = reading.recognized;
      outcome = success ? `**taken as a result page with ${reading.items.length} items**` : 'unrecognized_page';
    }
    if (success) totals.chargedWrongly += 1;
    else totals.blockPagesBlocked += 1;
    const reasonRight = verdict.kind === 'blocked' ? verdict.reason === expected.reason : expected.reason === 'unrecognized_page' && !success;
    if (reasonRight) totals.blockReasonsRight += 1;
    printTable(id, page, `${outcome}; expected ${expected.reason}${reasonRight ? '' : ' (other kind)'}`, []);
    continue;
  }

  if (page.requested.kind === 'product' && !('noResults' in expected || 'items' in expected)) {
    if (verdict.kind !== 'page') {
      printTable(id, page, `**not read: ${verdict.kind === 'blocked' ? `blocked (${verdict.reason})` : verdict.detail}**`, []);
      const missed = Object.keys(expected).length;
      totals.fields += missed;
      continue;
    }
    const reading = readProductPage(html, { ...options, asin: page.requested.asin });
    // A capture cut before its title cannot be recognised: its other fields are still scored.
    const cutBeforeTitle = !('title' in expected);
    const scored = reading.recognized || cutBeforeTitle;
    const rows = scored ? compareProduct(expected, reading.product) : [];
    if (!scored) totals.fields += Object.keys(expected).length;
    totals.fields += rows.length;
    totals.fieldsRight += rows.filter((r) => r.right).length;
    const product = reading.product as ProductDetails & Record<string, unknown>;
    totals.productRecords += 1;
    totals.productFieldsFilled += Object.entries(product).filter(([key, value]) => key !== 'missingFields' && filled(value)).length;
    if (product.badges?.includes('amazons_choice')) totals.choiceClaims += 1;
    if (expected.badges?.includes('amazons_choice')) totals.choiceShown += 1;
    const right = rows.filter((r) => r.right).length;
    const outcome = reading.recognized
      ? `${right} of ${rows.length} fields right`
      : cutBeforeTitle
        ? `${right} of ${rows.length} fields right (cut before its title: not recognisable, fields scored anyway)`
        : '**unrecognized_page**';
    printTable(id, page, outcome, rows);
    countChrome(id, [product]);
    continue;
  }

  if (page.requested.kind === 'search' && ('items' in expected || 'noResults' in expected)) {
    if (verdict.kind !== 'page') {
      printTable(id, page, `**not read: ${verdict.kind === 'blocked' ? `blocked (${verdict.reason})` : verdict.detail}**`, []);
      totals.searchPrices += (expected.items ?? []).filter((item) => 'price' in item).length;
      continue;
    }
    const reading = parseSearchPage(html, { ...options, keyword: page.requested.keyword ?? '', page: 1 });
    const rows: FieldCheck[] = [];
    if (!reading.recognized) rows.push({ field: 'recognized', expected: true, actual: false, right: false });
    if (expected.noResults !== undefined)
      rows.push({
        field: 'noResults',
        expected: expected.noResults,
        actual: reading.items.length === 0,
        right: expected.noResults === (reading.items.length === 0),
      });
    if (expected.organicCount !== undefined) {
      const organic = reading.items.filter((item) => !item.sponsored).length;
      rows.push({ field: 'organicCount', expected: expected.organicCount, actual: organic, right: organic === expected.organicCount });
    }
    for (const want of expected.items ?? []) {
      const item: SearchItem | undefined = reading.items.find((i) => i.asin === want.asin && (want.sponsored === undefined || i.sponsored === want.sponsored));
      if (want.sponsored !== undefined) {
        const any = reading.items.find((i) => i.asin === want.asin);
        rows.push({ field: `${want.asin}.sponsored`, expected: want.sponsored, actual: any?.sponsored, right: any?.sponsored === want.sponsored });
      }
      if ('price' in want) {
        totals.searchPrices += 1;
        const actual = item?.price ? { amount: item.price.amount, currency: item.price.currency } : null;
        const right = JSON.stringify(actual) === JSON.stringify(want.price);
        if (right) totals.searchPricesRight += 1;
        rows.push({ field: `${want.asin}.price`, expected: want.price, actual, right });
      }
      if (want.title !== undefined) {
        const right = item?.title.replace(/\s+/g, ' ').startsWith(want.title.replace(/\s+/g, ' ')) === true;
        rows.push({ field: `${want.asin}.title`, expected: want.title, actual: item?.title.slice(0, want.title.length + 10), right });
      }
    }
    const right = rows.filter((r) => r.right).length;
    printTable(id, page, `${right} of ${rows.length} checks right, ${reading.items.length} items`, rows);
    countChrome(id, reading.items);
    continue;
  }
  console.log(`\n### ${id}: nothing to score (check its JSON)`);
}

const pct = (right: number, of: number): string => (of === 0 ? 'n/a' : `${((100 * right) / of).toFixed(1)} %`);
console.log('\n## Totals\n');
console.log(`| what | figure |\n|---|---|`);
console.log(
  `| pages | ${ids.length - excluded} from ${totals.storefronts.size} storefronts (${[...totals.storefronts].sort().join(', ')})${excluded > 0 ? `; ${excluded} kept but not scored` : ''} |`,
);
console.log(`| product fields right | ${totals.fieldsRight} of ${totals.fields} (${pct(totals.fieldsRight, totals.fields)}) |`);
for (const [kind, tally] of Object.entries(kindTotals))
  console.log(`| ${kind} fields right | ${tally.right} of ${tally.total} (${pct(tally.right, tally.total)}) |`);
console.log(`| search prices right | ${totals.searchPricesRight} of ${totals.searchPrices} (${pct(totals.searchPricesRight, totals.searchPrices)}) |`);
console.log(
  `| block and other pages not taken as pages | ${totals.blockPagesBlocked} of ${totals.blockPages} (${pct(totals.blockPagesBlocked, totals.blockPages)}); kind as expected: ${totals.blockReasonsRight} |`,
);
console.log(`| block pages that would be a charged success | ${totals.chargedWrongly} |`);
console.log(`| records with interface or markup text in a field | ${totals.recordsWithChrome} of ${totals.records} |`);
console.log(`| product records claiming Amazon's Choice | ${totals.choiceClaims} (pages showing it: ${totals.choiceShown}) |`);
console.log(
  `| average non-empty top-level fields per product record | ${totals.productRecords === 0 ? 'n/a' : (totals.productFieldsFilled / totals.productRecords).toFixed(1)} |`,
);
