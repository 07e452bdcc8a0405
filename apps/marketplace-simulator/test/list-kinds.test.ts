import { MARKETPLACE_DOMAINS, MARKETPLACES, parseBestsellersPage, parseCategoryPage, parseSuggestions } from '@crawl/marketplace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browseNode, rankedAsins } from '../src/category-nodes.ts';
import { BESTSELLERS_LAYOUTS } from '../src/render/bestsellers-layouts.ts';
import { renderBestsellersPage } from '../src/render/bestsellers-page.ts';
import { renderCategoryListing } from '../src/render/category-listing.ts';
import { SEARCH_LAYOUTS } from '../src/render/search-layouts.ts';
import { suggestionsFor } from '../src/suggestions.ts';
import { createSimulator, getProduct, SEEDED_MARKET, type Simulator } from '../src/index.ts';

const LISTS = ['bestsellers', 'new-releases', 'movers-and-shakers'] as const;

describe('browse nodes', () => {
  it('any node id has the same name, path and ranked products on every call', () => {
    for (const nodeId of ['1', '172541', '99999999999999999999']) {
      expect(browseNode(nodeId)).toEqual(browseNode(nodeId));
      expect(browseNode(nodeId).path.at(-1)).toMatchObject({ name: browseNode(nodeId).name, nodeId });
      const asins = rankedAsins(browseNode(nodeId), 'bestsellers');
      expect(new Set(asins).size).toBe(100);
      for (const asin of asins) expect(getProduct(asin)).toBeDefined();
    }
    expect(rankedAsins(browseNode('42'), 'new-releases')).not.toEqual(rankedAsins(browseNode('42'), 'bestsellers'));
  });
});

describe('best-seller pages', () => {
  const node = browseNode('172541');

  it.each(BESTSELLERS_LAYOUTS.flatMap((layout) => MARKETPLACE_DOMAINS.map((domain) => [layout, domain] as const)))(
    '%s on %s: the parser reads the ranks, titles and prices the catalog holds',
    (layout, domain) => {
      const localNode = browseNode('172541', domain === 'amazon.de' ? 'de' : domain === 'amazon.co.jp' ? 'ja' : 'en');
      for (const page of [1, 2]) {
        const rendered = renderBestsellersPage({ node: localNode, list: 'bestsellers', page, domain, size: 'small', market: SEEDED_MARKET, layout });
        const read = parseBestsellersPage(rendered.html, { origin: 'http://127.0.0.1:1', marketplace: domain, page });
        expect(read.recognized).toBe(true);
        expect(read.items.map((i) => i.rank)).toEqual(Array.from({ length: 50 }, (_, i) => (page - 1) * 50 + i + 1));
        rendered.cards.forEach((card, i) => {
          const item = read.items[i];
          expect(item?.asin).toBe(card.view.product.asin);
          expect(item?.title).toBe(card.view.product.title);
          expect(item?.price?.currency).toBe(card.view.price ? card.view.price.currency : undefined);
          if (card.view.price) expect(item?.price?.amount).toBeCloseTo(card.view.price.minor / 10 ** card.view.price.decimals, 6);
          expect(item?.rating).toBe(card.view.product.rating);
          expect(item?.reviewCount).toBe(card.view.product.rating === undefined ? undefined : card.view.product.reviewCount);
        });
        expect(read.categoryName).toBe(localNode.name);
        expect(read.categoryPath?.map((level) => level.name)).toEqual(localNode.path.map((level) => level.name));
        expect(read.categoryPath?.[1]?.nodeId).toBe(localNode.path[1]?.nodeId);
      }
      expect(MARKETPLACES[domain].currency).toBeDefined();
    },
  );

  it('each kind of list ranks other products', () => {
    const firsts = LISTS.map(
      (list) => renderBestsellersPage({ node, list, page: 1, domain: 'amazon.com', size: 'small', market: SEEDED_MARKET }).cards[0]?.view.product.asin,
    );
    expect(new Set(firsts).size).toBe(3);
  });

  it('a full page weighs like the real one and still reads', () => {
    const rendered = renderBestsellersPage({ node, list: 'bestsellers', page: 1, domain: 'amazon.com', size: 'full', market: SEEDED_MARKET });
    expect(rendered.html.length).toBeGreaterThan(1_000_000);
    expect(parseBestsellersPage(rendered.html, { origin: 'https://www.amazon.com' }).items).toHaveLength(50);
  });
});

describe('category listings', () => {
  it.each(SEARCH_LAYOUTS.flatMap((layout) => (['amazon.com', 'amazon.de', 'amazon.co.jp'] as const).map((domain) => [layout, domain] as const)))(
    '%s on %s: items as a search page, the category from the department list',
    (layout, domain) => {
      const node = browseNode('3167641', domain === 'amazon.de' ? 'de' : domain === 'amazon.co.jp' ? 'ja' : 'en');
      const rendered = renderCategoryListing({ node, page: 2, domain, size: 'small', market: SEEDED_MARKET, layout });
      const read = parseCategoryPage(rendered.html, { origin: 'http://127.0.0.1:1', marketplace: domain, page: 2 });
      expect(read.recognized).toBe(true);
      expect(read.categoryName).toBe(node.name);
      expect(read.categoryPath?.at(-2)?.nodeId).toBe(node.path.at(-2)?.nodeId);
      expect(read.items.filter((i) => !i.sponsored)).toHaveLength(24);
      expect(read.items.filter((i) => i.sponsored).length).toBeGreaterThanOrEqual(3);
      expect(read.hasNextPage).toBe(true);
    },
  );

  it('sorts by price when asked', () => {
    const node = browseNode('3167641');
    const rendered = renderCategoryListing({
      node,
      page: 1,
      domain: 'amazon.com',
      size: 'small',
      market: SEEDED_MARKET,
      sort: 'price-asc-rank',
      layout: 'classic',
    });
    const prices = parseCategoryPage(rendered.html, { origin: 'https://www.amazon.com' })
      .items.filter((i) => !i.sponsored && i.price)
      .map((i) => i.price?.amount as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });
});

describe('suggestions', () => {
  it('are the same for a prefix on every call, start with it, and none for the marker', () => {
    expect(suggestionsFor('hea')).toEqual(suggestionsFor(' HEA '));
    expect(suggestionsFor('hea').length).toBeGreaterThan(3);
    for (const s of suggestionsFor('hea')) expect(s.value.startsWith('hea')).toBe(true);
    expect(suggestionsFor('zz nosuggest')).toEqual([]);
  });
});

describe('the routes', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
  });
  afterAll(async () => {
    await sim.close();
  });
  const get = (path: string) => fetch(`${sim.url}${path}`);

  it.each([
    ['/zgbs/electronics/172541', 'bestsellers'],
    ['/Best-Sellers-Electronics/zgbs/electronics/172541/ref=zg_bs_nav_1?pg=2', 'bestsellers'],
    ['/gp/new-releases/electronics/172541', 'new-releases'],
    ['/gp/movers-and-shakers/kitchen/7?layout=list', 'movers-and-shakers'],
  ])('%s serves a %s list', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    const page = parseBestsellersPage(await response.text(), { origin: sim.url, page: path.includes('pg=2') ? 2 : 1 });
    expect(page.recognized).toBe(true);
    expect(page.items).toHaveLength(50);
    expect(page.items[0]?.rank).toBe(path.includes('pg=2') ? 51 : 1);
  });

  it('serves a storefront in its own currency', async () => {
    const page = parseBestsellersPage(await (await get('/gp/bestsellers/x/172541?domain=amazon.de')).text(), { origin: sim.url, marketplace: 'amazon.de' });
    expect(page.items.find((i) => i.price)?.price?.currency).toBe('EUR');
  });

  it.each(['/s?rh=n%3A172541', '/s?rh=n:1,n:172541&page=3&s=price-desc-rank', '/b?node=172541', '/Headphones/b/?ie=UTF8&node=172541'])(
    '%s serves the node listing',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      const page = parseCategoryPage(await response.text(), { origin: sim.url });
      expect(page.recognized).toBe(true);
      expect(page.categoryName).toBe(browseNode('172541').name);
    },
  );

  it('a keyword search is still a search page, not a listing', async () => {
    const page = parseCategoryPage(await (await get('/s?k=headphones')).text(), { origin: sim.url });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.recognized).toBe(false);
  });

  it('answers suggestions as JSON for the storefront mid names', async () => {
    const response = await get('/api/2017/suggestions?limit=11&prefix=hea&alias=aps&mid=A1PA6795UKMFR9');
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.get('x-sim-domain')).toBeDefined();
    const page = parseSuggestions(await response.text(), { prefix: 'hea' });
    expect(page.recognized).toBe(true);
    expect(page.suggestions.map((s) => s.value)).toEqual(suggestionsFor('hea').map((s) => s.value));
  });

  it.each([
    ['/zgbs/electronics/172541?sim_block=home', 'bestsellers'],
    ['/zgbs/electronics/172541?sim_block=signin', 'bestsellers'],
    ['/zgbs/electronics/172541?sim_block=carousel', 'bestsellers'],
    ['/zgbs/electronics/172541?sim_fault=captcha', 'bestsellers'],
    ['/s?rh=n%3A172541&sim_block=home', 'category'],
    ['/b?node=172541&sim_block=signin', 'category'],
    ['/s?rh=n%3A172541&sim_fault=captcha', 'category'],
    ['/api/2017/suggestions?prefix=hea&sim_block=captcha', 'autocomplete'],
    ['/api/2017/suggestions?prefix=hea&sim_block=other-prefix', 'autocomplete'],
    ['/api/2017/suggestions?prefix=hea&sim_block=empty', 'autocomplete'],
    ['/api/2017/suggestions?prefix=hea&sim_fault=captcha', 'autocomplete'],
  ])('%s is no %s page', async (path, kind) => {
    const response = await get(path);
    const body = await response.text();
    const recognized =
      kind === 'bestsellers'
        ? parseBestsellersPage(body, { origin: sim.url }).recognized
        : kind === 'category'
          ? parseCategoryPage(body, { origin: sim.url }).recognized
          : parseSuggestions(body, { prefix: 'hea' }).recognized;
    expect(recognized).toBe(false);
  });

  it('counts the kinds as routes of their own', async () => {
    sim.resetStats();
    await get('/zgbs/x/1');
    await get('/b?node=1');
    await get('/api/2017/suggestions?prefix=a');
    expect(Object.keys(sim.stats().byRoute ?? {})).toEqual(expect.arrayContaining(['bestsellers', 'category', 'autocomplete']));
  });
});
