import { detectBlock, parseProductPage, parseSearchPage, resolveDetailsTarget } from '@crawl/marketplace';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPECIAL_ASINS, WELL_KNOWN_ASINS, createSimulator, getProduct, type Simulator } from '../src/index.ts';

async function get(sim: Simulator, path: string, headers: Record<string, string> = {}): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(`${sim.url}${path}`, { headers });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

describe('simulator HTTP server', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('listens on 127.0.0.1 on a free port and answers /health', async () => {
    expect(sim.url).toBe(`http://127.0.0.1:${sim.port}`);
    expect(sim.host).toBe(`127.0.0.1:${sim.port}`);
    const res = await fetch(`${sim.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves search pages the parser reads', async () => {
    const res = await get(sim, '/s?k=laptop&page=2&layout=grid');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sim-layout')).toBe('grid');
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(detectBlock({ status: res.status, html: res.html })).toEqual({ blocked: false });
    const page = parseSearchPage(res.html, { origin: sim.url, marketplace: 'amazon.com' });
    expect(page.items.length).toBeGreaterThanOrEqual(16);
    expect(page.items.every((i) => i.price === undefined || i.price.currency === 'USD')).toBe(true);
  });

  it("honours the storefront's sort (s=) and language switcher (language=)", async () => {
    const res = await get(sim, '/s?k=kettle&domain=amazon.de&s=price-desc-rank&language=en_GB');
    const page = parseSearchPage(res.html, { origin: sim.url, marketplace: 'amazon.de' });
    expect(page.deliverTo).toBe('Deutschland');
    expect(res.html).toContain('lang="en-gb"');
    const prices = page.items.filter((i) => !i.sponsored && i.price).map((i) => i.price!.amount);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    // A language the storefront does not offer is ignored, as the storefront would; a postal code in the URL sets nothing.
    const ignored = await get(sim, `/dp/${WELL_KNOWN_ASINS[0]}?domain=amazon.fr&language=de_DE&deliveryZip=75001`);
    expect(ignored.html).toContain('lang="fr-fr"');
    expect(parseProductPage(ignored.html, { origin: sim.url, marketplace: 'amazon.fr' }).deliverTo).toBe('France');
  });

  it('serves the same page for the same request', async () => {
    const a = await get(sim, '/s?k=kettle');
    const b = await get(sim, '/s?k=kettle');
    expect(a.html).toBe(b.html);
  });

  it('serves product pages under /dp, /gp/product and slugged /dp paths', async () => {
    const asin = WELL_KNOWN_ASINS[2]!;
    const title = getProduct(asin)!.title;
    for (const path of [`/dp/${asin}`, `/gp/product/${asin}`, `/Some-Slug/dp/${asin}/ref=sr_1_1?th=1`, `/dp/${asin.toLowerCase()}`]) {
      const res = await get(sim, path);
      expect(res.status).toBe(200);
      expect(parseProductPage(res.html, { origin: sim.url }).title).toBe(title);
    }
  });

  it('answers 404 for unknown ASINs and paths', async () => {
    for (const path of ['/dp/B0NOTFOUND', '/dp/B0NOTF0001', '/dp/B0NOTFOUND7', '/dp/B08N5WRWNW', '/gp/product/B0SIM00099', '/nothing-here']) {
      const res = await get(sim, path);
      expect(res.status, path).toBe(404);
      expect(detectBlock({ status: res.status, html: res.html })).toEqual({ blocked: false });
    }
  });

  it('picks the storefront from ?domain= or the Host header', async () => {
    const byQuery = await get(sim, `/dp/${WELL_KNOWN_ASINS[0]}?domain=amazon.de`);
    expect(byQuery.headers.get('x-sim-domain')).toBe('amazon.de');
    expect(parseProductPage(byQuery.html, { origin: sim.url, marketplace: 'amazon.de' }).price?.currency).toBe('EUR');
    // fetch() will not send a custom Host header, node:http will.
    const byHost = await new Promise<{ domain: string | undefined; html: string }>((resolve, reject) => {
      const req = request(`${sim.url}/dp/${WELL_KNOWN_ASINS[0]}`, { headers: { host: 'www.amazon.co.jp' } }, (res) => {
        let html = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (html += chunk));
        res.on('end', () => resolve({ domain: res.headers['x-sim-domain'] as string | undefined, html }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(byHost.domain).toBe('amazon.co.jp');
    expect(parseProductPage(byHost.html, { origin: 'https://www.amazon.co.jp' }).price?.currency).toBe('JPY');
  });

  it('serves full-size pages of 1–2 MB on request', async () => {
    const search = await get(sim, '/s?k=headphones&sim_size=full');
    const product = await get(sim, `/dp/${WELL_KNOWN_ASINS[1]}`, { 'x-sim-size': 'full' });
    for (const html of [search.html, product.html]) {
      expect(html.length).toBeGreaterThan(1_000_000);
      expect(html.length).toBeLessThan(2_000_000);
    }
  });

  it('lets product URLs of the simulator pass resolveDetailsTarget with its host', () => {
    expect(resolveDetailsTarget(`${sim.url}/dp/${WELL_KNOWN_ASINS[0]}`, { extraHosts: [sim.host] })).toMatchObject({ ok: true, asin: WELL_KNOWN_ASINS[0] });
  });
});

describe('simulator fault injection', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it.each([
    ['captcha', 200, 'captcha'],
    ['robot', 200, 'robot_check'],
    ['api-services', 503, 'api_services_support'],
    ['503', 503, 'service_unavailable'],
    ['429', 429, 'rate_limited'],
  ])('x-sim-fault: %s', async (fault, status, reason) => {
    const viaHeader = await get(sim, '/s?k=laptop', { 'x-sim-fault': fault });
    expect(viaHeader.status).toBe(status);
    expect(detectBlock({ status: viaHeader.status, html: viaHeader.html })).toEqual({ blocked: true, reason });
    const viaQuery = await get(sim, `/dp/${WELL_KNOWN_ASINS[0]}?sim_fault=${fault}`);
    expect(viaQuery.status).toBe(status);
    expect(detectBlock({ status: viaQuery.status, html: viaQuery.html })).toEqual({ blocked: true, reason });
  });

  it('sends Retry-After with 429', async () => {
    const res = await get(sim, '/s?k=laptop&sim_fault=429');
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('delays slow responses', async () => {
    const started = performance.now();
    const res = await get(sim, '/s?k=laptop&sim_fault=slow:250');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('resets the connection', async () => {
    await expect(fetch(`${sim.url}/s?k=laptop&sim_fault=reset`)).rejects.toThrow();
  });

  it('always blocks keywords containing "blocked" and the blocked ASIN', async () => {
    for (let i = 0; i < 2; i++) {
      const search = await get(sim, '/s?k=blocked+shoes');
      expect(search.status).toBe(200);
      expect(detectBlock({ status: 200, html: search.html })).toEqual({ blocked: true, reason: 'captcha' });
      const product = await get(sim, `/dp/${SPECIAL_ASINS.blocked}`);
      expect(detectBlock({ status: 200, html: product.html })).toEqual({ blocked: true, reason: 'captcha' });
    }
  });

  it('fails flaky and throttled URLs once, then serves them', async () => {
    expect((await get(sim, '/s?k=flaky+kettle')).status).toBe(503);
    expect((await get(sim, '/s?k=flaky+kettle')).status).toBe(200);
    expect((await get(sim, '/s?k=flaky+kettle&page=2')).status).toBe(503);
    expect((await get(sim, `/dp/${SPECIAL_ASINS.flaky}`)).status).toBe(503);
    expect((await get(sim, `/dp/${SPECIAL_ASINS.flaky}`)).status).toBe(200);
    expect((await get(sim, `/dp/${SPECIAL_ASINS.throttled}`)).status).toBe(429);
    expect((await get(sim, `/dp/${SPECIAL_ASINS.throttled}`)).status).toBe(200);
    await expect(fetch(`${sim.url}/dp/${SPECIAL_ASINS.reset}`)).rejects.toThrow();
    expect((await get(sim, `/dp/${SPECIAL_ASINS.reset}`)).status).toBe(200);
  });

  it('lets a request opt out of configured faults with sim_fault=none', async () => {
    expect((await get(sim, '/s?k=blocked&sim_fault=none')).html).not.toContain('validateCaptcha');
  });

  it('counts requests per URL, route, status and fault', async () => {
    sim.resetStats();
    await get(sim, '/s?k=stats+test');
    await get(sim, '/s?k=stats+test&sim_fault=503');
    await get(sim, `/dp/${WELL_KNOWN_ASINS[4]}`);
    await get(sim, '/dp/B0NOTFOUND');
    await fetch(`${sim.url}/health`);
    expect(sim.stats()).toEqual({
      total: 5,
      byPath: { '/s?k=stats+test': 2, [`/dp/${WELL_KNOWN_ASINS[4]}`]: 1, '/dp/B0NOTFOUND': 1, '/health': 1 },
      byRoute: { search: 2, product: 2, home: 0, 'address-change': 0, health: 1, other: 0 },
      byStatus: { '200': 3, '503': 1, '404': 1 },
      faults: { '503': 1 },
    });
    sim.resetStats();
    expect(sim.stats().total).toBe(0);
  });

  it('applies configured rules and rates, replaceable at runtime', async () => {
    sim.setFaults({
      rules: [
        { asin: WELL_KNOWN_ASINS[5]!, fault: '429', times: 2 },
        { path: '/s?k=ruled', fault: 'robot' },
      ],
    });
    expect((await get(sim, `/dp/${WELL_KNOWN_ASINS[5]}?x=1`)).status).toBe(429);
    expect((await get(sim, `/dp/${WELL_KNOWN_ASINS[5]}?x=1`)).status).toBe(429);
    expect((await get(sim, `/dp/${WELL_KNOWN_ASINS[5]}?x=1`)).status).toBe(200);
    const ruled = await get(sim, '/s?k=ruled');
    expect(detectBlock({ status: ruled.status, html: ruled.html })).toEqual({ blocked: true, reason: 'robot_check' });
    sim.setFaults({ captchaRate: 1 });
    const captcha = await get(sim, `/dp/${WELL_KNOWN_ASINS[6]}`);
    expect(detectBlock({ status: captcha.status, html: captcha.html })).toEqual({ blocked: true, reason: 'captcha' });
    sim.setFaults({});
    expect((await get(sim, `/dp/${WELL_KNOWN_ASINS[6]}`)).status).toBe(200);
  });
});

describe('simulator random faults', () => {
  async function sequence(seed: number): Promise<number[]> {
    const sim = await createSimulator({ pageSize: 'small', seed, faults: { rate503: 0.3, rate429: 0.2 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await get(sim, `/s?k=seeded+${i % 10}`)).status);
      return statuses;
    } finally {
      await sim.close();
    }
  }

  it('fails the same requests for the same seed', async () => {
    const first = await sequence(42);
    expect(await sequence(42)).toEqual(first);
    expect(await sequence(7)).not.toEqual(first);
    const failures = first.filter((s) => s !== 200).length;
    expect(failures).toBeGreaterThan(5);
    expect(failures).toBeLessThan(35);
    expect(new Set(first)).toEqual(new Set([200, 429, 503]));
  });
});

describe('simulator shutdown', () => {
  it('closes while a slow request is pending', async () => {
    const sim = await createSimulator({ pageSize: 'small' });
    const pending = fetch(`${sim.url}/s?k=x&sim_fault=slow:60000`).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise<void>((resolve) => {
      const poll = (): void => (sim.stats().total > 0 ? resolve() : void setImmediate(poll));
      poll();
    });
    await sim.close();
    expect(await pending).toBe('failed');
  });
});
