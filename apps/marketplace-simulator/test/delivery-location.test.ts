import { parseProductPage, parseSearchPage } from '@crawl/marketplace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_CHANGE_PATH, CSRF_HEADER, WELL_KNOWN_ASINS, createSimulator, glowToken, type Simulator } from '../src/index.ts';

/** The token as a browser's script reads it: from the location widget's modal settings. */
function tokenOf(html: string): string | undefined {
  const modal = /id="nav-global-location-data-modal-action"[^>]*data-a-modal="([^"]*)"/.exec(html)?.[1];
  if (!modal) return undefined;
  const json = JSON.parse(modal.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { ajaxHeaders?: Record<string, string> };
  return json.ajaxHeaders?.[CSRF_HEADER];
}

function changeAddress(sim: Simulator, query: string, body: unknown, token: string | undefined): Promise<Response> {
  return fetch(`${sim.url}${ADDRESS_CHANGE_PATH}?actionSource=glow${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { [CSRF_HEADER]: token } : {}) },
    body: JSON.stringify(body),
  });
}

const location = (zipCode: string) => ({
  locationType: 'LOCATION_INPUT',
  zipCode,
  deviceType: 'web',
  storeContext: 'generic',
  pageType: 'Gateway',
  actionSource: 'glow',
});

describe('simulator location widget', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('serves a front page whose location widget carries the storefront token', async () => {
    const res = await fetch(`${sim.url}/?domain=amazon.de`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(tokenOf(html)).toBe(glowToken('amazon.de'));
    expect(glowToken('amazon.de')).not.toBe(glowToken('amazon.com'));
    expect(parseSearchPage(html, { origin: sim.url, marketplace: 'amazon.de' }).deliverTo).toBe('Deutschland');
  });

  it('sets the location in a cookie that later pages of the same storefront read', async () => {
    const home = await (await fetch(`${sim.url}/?domain=amazon.de`)).text();
    const res = await changeAddress(sim, '&domain=amazon.de', location('10115'), tokenOf(home));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isValidAddress: 1, successful: 1, address: { zipCode: '10115' } });
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;

    const search = await (await fetch(`${sim.url}/s?k=kettle&domain=amazon.de`, { headers: { cookie } })).text();
    expect(parseSearchPage(search, { origin: sim.url, marketplace: 'amazon.de' }).deliverTo).toBe('10115');
    const product = await (await fetch(`${sim.url}/dp/${WELL_KNOWN_ASINS[0]}?domain=amazon.de`, { headers: { cookie } })).text();
    expect(parseProductPage(product, { origin: sim.url, marketplace: 'amazon.de' }).deliverTo).toBe('10115');
    // Another storefront does not take the location chosen on this one.
    const other = await (await fetch(`${sim.url}/s?k=kettle&domain=amazon.fr`, { headers: { cookie } })).text();
    expect(parseSearchPage(other, { origin: sim.url, marketplace: 'amazon.fr' }).deliverTo).toBe('France');
  });

  it('refuses a missing or foreign token and sets nothing', async () => {
    for (const token of [undefined, glowToken('amazon.com')]) {
      const res = await changeAddress(sim, '&domain=amazon.de', location('10115'), token);
      expect(res.status).toBe(400);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('answers isValidAddress 0 to a postal code it cannot use, and 405 to a GET', async () => {
    const res = await changeAddress(sim, '', location('<x>'), glowToken('amazon.com'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ isValidAddress: 0, successful: 0 });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await fetch(`${sim.url}${ADDRESS_CHANGE_PATH}`)).status).toBe(405);
  });

  it('injects faults into the address change like into any page', async () => {
    sim.setFaults({ rules: [{ path: ADDRESS_CHANGE_PATH, fault: '503' }] });
    try {
      const res = await changeAddress(sim, '', location('10001'), glowToken('amazon.com'));
      expect(res.status).toBe(503);
      expect(res.headers.getSetCookie()).toEqual([]);
    } finally {
      sim.setFaults({});
    }
  });
});
