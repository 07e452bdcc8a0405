import type { CrawlClient, HistoryPoint, KeywordRanks, ProductHistory, ProductHistoryOptions, RankPoint } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { UsageError } from '../cli-io.ts';
import { formatTime } from '../output/format.ts';
import {
  chartField,
  DEFAULT_HISTORY_COLUMNS,
  historyChart,
  historyColumns,
  historyHeader,
  historyRow,
  rankCell,
  rankSummaries,
  stepsOf,
} from '../output/history-view.ts';
import { sampleSteps, sparkline } from '../output/sparkline.ts';
import { table } from '../output/table.ts';
import type { Action } from './action.ts';
import { parseFields, parseResolution, parseWhen } from './history-input.ts';
import { integer } from './jobs-commands.ts';

/** Points asked for per request: the API's largest page, so a long window takes few requests. */
const PAGE_SIZE = 1000;

interface WindowOptions {
  domain?: string;
  from?: string;
  to?: string;
  limit: string;
}

interface HistoryOptions extends WindowOptions {
  zip?: string;
  fields?: string;
  resolution?: string;
}

export function historyCommands(program: Command, action: Action): void {
  program
    .command('history')
    .description("a product's tracked values over time (price, stock, seller, rating, best-sellers ranks) as change points, with a price chart")
    .argument('<asin>', 'the ASIN (10 letters and digits)')
    .option('--domain <domain>', 'storefront, e.g. amazon.de (default amazon.com)')
    .option('--zip <zip>', 'the delivery postal code the jobs set (default: jobs that set none)')
    .option('--from <time>', 'from this time: 2026-03-01, an ISO time, or a time ago (12h, 30d, 2w)')
    .option('--to <time>', 'until this time (same forms)')
    .option('--fields <list>', 'tracked fields, comma-separated: price,inStock,bestSellersRank,… (default: all)')
    .option('--resolution <r>', '1h or 1d: one point per hour or day, for long windows')
    .option('--limit <n>', 'table rows: the latest N points (--json prints every point)', '20')
    .action(
      action(async (ctx: CliContext, [asinArg], options: HistoryOptions) => {
        const asin = asinOf(asinArg as string);
        const limit = integer('--limit', options.limit);
        const fields = options.fields === undefined ? undefined : parseFields(options.fields);
        const query: ProductHistoryOptions = {
          ...window(options),
          ...(options.zip ? { zip: options.zip } : {}),
          ...(fields ? { fields } : {}),
          ...(options.resolution ? { resolution: parseResolution(options.resolution) } : {}),
        };
        const history = await productHistory(ctx.client(), asin, query);
        ctx.output.result(history, () => describeHistory(history, fields ?? DEFAULT_HISTORY_COLUMNS, limit, chartWidth(ctx)));
      }),
    );

  program
    .command('ranks')
    .description("a keyword's search ranks over time: each product's organic place, sponsored position and page")
    .argument('<keyword>', 'the search keyword (case and spacing are ignored)')
    .option('--asin <asin>', "one product's rank changes, point by point")
    .option('--domain <domain>', 'storefront, e.g. amazon.de (default amazon.com)')
    .option('--from <time>', 'from this time: 2026-03-01, an ISO time, or a time ago (12h, 30d, 2w)')
    .option('--to <time>', 'until this time (same forms)')
    .option('--limit <n>', 'with --asin: table rows, the latest N points (--json prints every point)', '20')
    .action(
      action(async (ctx: CliContext, [keyword], options: WindowOptions & { asin?: string }) => {
        const limit = integer('--limit', options.limit);
        const asin = options.asin === undefined ? undefined : asinOf(options.asin);
        const ranks = await keywordRanks(ctx.client(), keyword as string, { ...window(options), ...(asin ? { asin } : {}) });
        ctx.output.result(ranks, () => (asin ? describeOneRank(ranks, asin, limit, chartWidth(ctx)) : describeRanks(ranks, chartWidth(ctx))));
      }),
    );
}

function asinOf(text: string): string {
  const asin = text.trim().toUpperCase();
  if (!/^[A-Z0-9]{10}$/.test(asin)) throw new UsageError(`an ASIN is 10 letters and digits, got "${text}"`);
  return asin;
}

function window(options: WindowOptions): { domain?: string; from?: string; to?: string } {
  return {
    ...(options.domain ? { domain: options.domain } : {}),
    ...(options.from ? { from: parseWhen('--from', options.from) } : {}),
    ...(options.to ? { to: parseWhen('--to', options.to) } : {}),
  };
}

/** The chart's width: most of the terminal, at most 60 characters (40 off a terminal). */
function chartWidth(ctx: CliContext): number {
  const columns = ctx.output.stdout.columns ?? 80;
  return Math.max(10, Math.min(60, columns - 50));
}

/** Every page of the window, with the subject as the API named it (the storefront normalized). */
async function productHistory(client: CrawlClient, asin: string, query: ProductHistoryOptions): Promise<ProductHistory> {
  let page = await client.history.product(asin, { ...query, limit: PAGE_SIZE });
  const points = [...page.points];
  while (page.nextCursor) {
    page = await client.history.product(asin, { ...query, limit: PAGE_SIZE, cursor: page.nextCursor });
    points.push(...page.points);
  }
  return { subject: page.subject, points, nextCursor: null };
}

async function keywordRanks(
  client: CrawlClient,
  keyword: string,
  query: { domain?: string; from?: string; to?: string; asin?: string },
): Promise<KeywordRanks> {
  let page = await client.history.keywordRanks(keyword, { ...query, limit: PAGE_SIZE });
  const points = [...page.points];
  while (page.nextCursor) {
    page = await client.history.keywordRanks(keyword, { ...query, limit: PAGE_SIZE, cursor: page.nextCursor });
    points.push(...page.points);
  }
  return { ...page, points, nextCursor: null };
}

function describeHistory(history: ProductHistory, wanted: readonly string[], limit: number, width: number): string {
  const { subject, points } = history;
  const where = `${subject.asin} on ${subject.marketplace}${subject.zip ? `, delivery ZIP ${subject.zip}` : ''}`;
  if (points.length === 0) {
    return `No history of ${where} in that window. History is kept from your organization's details jobs and monitors${subject.zip ? '' : ' (--zip for jobs that set a delivery ZIP)'}.`;
  }
  const first = points[0] as HistoryPoint;
  const last = points[points.length - 1] as HistoryPoint;
  const columns = historyColumns(points, wanted);
  const field = chartField(points, columns);
  const chart = field ? historyChart(points, field, width) : undefined;
  const shown = points.slice(-limit);
  const lines = [
    `${where}: ${points.length} change point(s), ${formatTime(first.from)} to ${formatTime(last.to)}`,
    ...(chart ? [chart] : []),
    '',
    table(
      ['FROM', 'TO', 'CHECKS', ...columns.map(historyHeader)],
      shown.map((point) => historyRow(point, columns)),
    ),
  ];
  if (shown.length < points.length) lines.push(`(the latest ${shown.length} of ${points.length}; --limit N or --json for more)`);
  return lines.join('\n');
}

function describeRanks(ranks: KeywordRanks, width: number): string {
  if (ranks.points.length === 0)
    return `No rank history of "${ranks.keyword}" on ${ranks.marketplace} in that window. It is kept from your organization's search jobs and monitors.`;
  // Those in the results now first, by place; then those that dropped out.
  const summaries = rankSummaries(ranks.points, Math.min(width, 30)).sort(
    (a, b) => (typeof a.now === 'number' ? a.now : Number.POSITIVE_INFINITY) - (typeof b.now === 'number' ? b.now : Number.POSITIVE_INFINITY),
  );
  return [
    `"${ranks.keyword}" on ${ranks.marketplace}: ${summaries.length} product(s), ${ranks.points.length} change point(s)`,
    '',
    table(
      ['ASIN', 'NOW', 'BEST', 'WORST', 'CHANGES', 'TREND'],
      summaries.map((s) => [s.asin, rankCell(s.now), s.best, s.worst, s.points, s.trend]),
    ),
    '(TREND: organic place over time, taller is nearer the top; NOW "-": not among the results checked)',
  ].join('\n');
}

function describeOneRank(ranks: KeywordRanks, asin: string, limit: number, width: number): string {
  const points: RankPoint[] = ranks.points;
  if (points.length === 0) return `No rank history of ${asin} for "${ranks.keyword}" on ${ranks.marketplace} in that window.`;
  const steps = stepsOf(points, (point) => point.organicRank);
  const shown = points.slice(-limit);
  const lines = [
    `${asin} for "${ranks.keyword}" on ${ranks.marketplace}: ${points.length} change point(s)`,
    `organic place  ${sparkline(sampleSteps(steps, width), { invert: true })}  now ${rankCell(points[points.length - 1]?.organicRank) || '-'}`,
    '',
    table(
      ['FROM', 'TO', 'CHECKS', 'ORGANIC', 'SPONSORED', 'PAGE'],
      shown.map((p) => [formatTime(p.from), formatTime(p.to), p.checks, rankCell(p.organicRank), rankCell(p.sponsoredPosition), rankCell(p.page)]),
    ),
  ];
  if (shown.length < points.length) lines.push(`(the latest ${shown.length} of ${points.length}; --limit N or --json for more)`);
  return lines.join('\n');
}
