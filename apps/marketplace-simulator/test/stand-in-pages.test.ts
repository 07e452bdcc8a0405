import { parseProductPage, parseSearchPage } from '@crawl/marketplace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCK_KINDS, SPECIAL_ASINS, WELL_KNOWN_ASINS, createSimulator, type Simulator } from '../src/index.ts';

async function get(sim: Simulator, path: string): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(`${sim.url}${path}`);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

/** What a crawler would take from the page: it must find neither a product nor a result. */
function expectNoProductNorResults(sim: Simulator, html: string): void {
  expect(parseProductPage(html, { origin: sim.url, marketplace: 'amazon.com' }).title).toBe('');
  expect(parseSearchPage(html, { origin: sim.url, marketplace: 'amazon.com' }).items).toEqual([]);
}

function gokuProps(html: string): Record<string, unknown> {
  const json = /window\.gokuProps = (\{[^;]+\});/.exec(html)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json as string) as Record<string, unknown>;
}

describe('bot-manager and stand-in pages', () => {
  let sim: Simulator;
  const asin = WELL_KNOWN_ASINS[7] as string;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('interstitial: HTTP 200, a meta refresh back to the URL with bm-verify, a hidden verification frame, a script posting to the verifier', async () => {
    const res = await get(sim, `/dp/${asin}?th=1&sim_fault=interstitial`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sim-fault')).toBe('interstitial');
    const refresh = /<meta http-equiv="refresh" content="5; URL='([^']+)'">/.exec(res.html)?.[1];
    expect(refresh).toBeDefined();
    const back = new URL((refresh as string).replaceAll('&amp;', '&'), sim.url);
    expect(back.pathname).toBe(`/dp/${asin}`);
    expect(back.searchParams.get('th')).toBe('1');
    expect(back.searchParams.has('sim_fault')).toBe(false);
    const token = back.searchParams.get('bm-verify');
    expect(token).toMatch(/^[A-Za-z0-9+/]{88}$/);
    expect(res.html).toMatch(/<div id="sec-overlay" style="display:none"><iframe [^>]*title="Verifying your browser"/);
    expect(res.html).toContain('xhr.open("POST", "/_sec/verify?provider=interstitial"');
    expect(res.html).toMatch(/var pow = i \+ Number\("\d+" \+ "\d+"\);/);
    expect(res.html).toContain(`"bm-verify": "${token}"`);
    expectNoProductNorResults(sim, res.html);
    // Every answer is a new challenge: the next attempt at the URL carries another token.
    expect((await get(sim, `/dp/${asin}?th=1&sim_fault=interstitial`)).html).not.toContain(token);
  });

  it('challenge: HTTP 202 with x-amzn-waf-action, gokuProps, the challenge script from a token host, an empty container and a reload', async () => {
    const res = await get(sim, `/dp/${asin}?sim_fault=challenge`);
    expect(res.status).toBe(202);
    expect(res.headers.get('x-amzn-waf-action')).toBe('challenge');
    expect(Object.keys(gokuProps(res.html)).sort()).toEqual(['context', 'iv', 'key']);
    expect(res.html).toMatch(/<script src="https:\/\/[0-9a-f]{8}\.us-east-1\.token\.awswaf\.com\/[0-9a-f]{8}\/[0-9a-f]{8}\/challenge\.js"><\/script>/);
    expect(res.html).toContain('<div id="challenge-container"></div>');
    expect(res.html).toMatch(/AwsWafIntegration\.getToken\(\)[\s\S]*window\.location\.reload\(true\)/);
    expectNoProductNorResults(sim, res.html);
  });

  it('challenge-200: the same page as HTTP 200 without the header', async () => {
    const res = await get(sim, '/s?k=kettle&sim_fault=challenge-200');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-amzn-waf-action')).toBeNull();
    expect(Object.keys(gokuProps(res.html)).sort()).toEqual(['context', 'iv', 'key']);
    expect(res.html).toContain('/challenge.js"');
    expect(res.html).toContain('<div id="challenge-container"></div>');
    expectNoProductNorResults(sim, res.html);
  });

  it('waf-captcha: HTTP 405 with x-amzn-waf-action: captcha, the captcha script and its container', async () => {
    const res = await get(sim, `/dp/${asin}?sim_fault=waf-captcha`);
    expect(res.status).toBe(405);
    expect(res.headers.get('x-amzn-waf-action')).toBe('captcha');
    gokuProps(res.html);
    expect(res.html).toMatch(/token\.awswaf\.com\/[0-9a-f]{8}\/[0-9a-f]{8}\/captcha\.js"/);
    expect(res.html).toContain('<div id="captcha-container"></div>');
    expect(res.html).not.toContain('challenge.js');
    expectNoProductNorResults(sim, res.html);
  });

  it('error-page: the storefront error page with HTTP 200 or 500', async () => {
    for (const [fault, status] of [
      ['error-page', 200],
      ['error-page-500', 500],
    ] as const) {
      const res = await get(sim, `/dp/${asin}?sim_fault=${fault}`);
      expect(res.status).toBe(status);
      expect(res.html).toContain("We're sorry.");
      expect(res.html).toContain('An error occurred when we tried to process your request.');
      expectNoProductNorResults(sim, res.html);
    }
  });

  it('signin: HTTP 200 with the /ap/signin form asking for the email', async () => {
    const res = await get(sim, `/dp/${asin}?sim_fault=signin`);
    expect(res.status).toBe(200);
    expect(res.html).toMatch(/<form name="signIn" method="post"[^>]* action="\/ap\/signin"/);
    expect(res.html).toMatch(/<input type="email"[^>]* name="email"/);
    expect(res.html).toContain(`name="openid.return_to" value="/dp/${asin}"`);
    expectNoProductNorResults(sim, res.html);
  });

  it('unrecognized: HTTP 200, a promotion page with header and footer, no product, results or block marker', async () => {
    for (const size of ['small', 'full']) {
      const res = await get(sim, `/dp/${asin}?sim_fault=unrecognized&sim_size=${size}`);
      expect(res.status).toBe(200);
      expect(res.html).toContain('<header id="navbar-main"');
      expect(res.html).toContain('id="glow-ingress-line2"');
      expect(res.html).toContain('<div id="navFooter"');
      expect(res.html).toContain('id="promo-grid"');
      expect(res.html).not.toMatch(/validateCaptcha|gokuProps|bm-verify|\/ap\/signin|An error occurred/);
      if (size === 'full') expect(res.html.length).toBeGreaterThan(1_000_000);
      expectNoProductNorResults(sim, res.html);
    }
  });

  it('serves them for the documented keywords and ASINs, on every attempt', async () => {
    const cases: [string, string][] = [
      ['/s?k=interstitial+lamp', 'interstitial'],
      ['/s?k=challenge+coin', 'challenge'],
      ['/s?k=wafcaptcha', 'waf-captcha'],
      ['/s?k=errorpage', 'error-page'],
      ['/s?k=signin', 'signin'],
      ['/s?k=unrecognized+shoes', 'unrecognized'],
      [`/dp/${SPECIAL_ASINS.interstitial}`, 'interstitial'],
      [`/dp/${SPECIAL_ASINS.challenge}`, 'challenge'],
      [`/dp/${SPECIAL_ASINS.wafCaptcha}`, 'waf-captcha'],
      [`/dp/${SPECIAL_ASINS.errorPage}`, 'error-page'],
      [`/dp/${SPECIAL_ASINS.signin}`, 'signin'],
      [`/dp/${SPECIAL_ASINS.oddPage}`, 'unrecognized'],
    ];
    for (const [path, fault] of cases) {
      for (let i = 0; i < 2; i++) expect((await get(sim, path)).headers.get('x-sim-fault'), path).toBe(fault);
    }
    // Opting out shows the product behind a special ASIN.
    const product = await get(sim, `/dp/${SPECIAL_ASINS.oddPage}?sim_fault=none`);
    expect(parseProductPage(product.html, { origin: sim.url }).asin).toBe(SPECIAL_ASINS.oddPage);
  });

  it('answers a blockRate of 1 with every block kind at its status, and counts them', async () => {
    sim.resetStats();
    sim.setFaults({ blockRate: 1 });
    try {
      const statuses: Record<string, Set<number>> = {};
      for (let i = 0; i < 60; i++) {
        const res = await get(sim, `/dp/${WELL_KNOWN_ASINS[i % 10]}?v=${i}`);
        const fault = res.headers.get('x-sim-fault') as string;
        (statuses[fault] ??= new Set()).add(res.status);
      }
      expect(Object.keys(statuses).sort()).toEqual([...BLOCK_KINDS].sort());
      expect(statuses).toEqual({ captcha: new Set([200]), robot: new Set([200]), interstitial: new Set([200]), challenge: new Set([202]) });
      const stats = sim.stats();
      expect(Object.keys(stats.faults).sort()).toEqual([...BLOCK_KINDS].sort());
      expect(Object.values(stats.faults).reduce((a, b) => a + b, 0)).toBe(60);
      expect((stats.byStatus['200'] ?? 0) + (stats.byStatus['202'] ?? 0)).toBe(60);
    } finally {
      sim.setFaults({});
    }
  });

  it('counts each stand-in page under its own kind', async () => {
    sim.resetStats();
    for (const fault of ['challenge-200', 'waf-captcha', 'error-page', 'error-page-500', 'signin', 'unrecognized', 'signin'])
      await get(sim, `/s?k=count&sim_fault=${fault}`);
    expect(sim.stats().faults).toEqual({ 'challenge-200': 1, 'waf-captcha': 1, 'error-page': 1, 'error-page-500': 1, signin: 2, unrecognized: 1 });
    expect(sim.stats().byStatus).toEqual({ '200': 5, '405': 1, '500': 1 });
  });
});
