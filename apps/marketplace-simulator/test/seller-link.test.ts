import { parseSellerPage } from '@crawl/marketplace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, createSimulator, makeCatalogAsin, type Simulator } from '../src/index.ts';

describe("a product page's seller link", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
  });
  afterAll(() => sim.close());

  it("leads to that seller's profile, as on the storefront", async () => {
    let checked = 0;
    for (let n = 0; n < 60 && checked < 3; n += 1) {
      const asin = makeCatalogAsin(n % CATEGORIES.length, `seller-link-${n}`);
      const page = await (await fetch(`${sim.url}/dp/${asin}`)).text();
      const link = /id="sellerProfileTriggerId" href="[^"]*[?&]seller=([^"&]+)"[^>]*>([^<]+)</.exec(page);
      if (!link) continue;
      const [, sellerId, name] = link as unknown as [string, string, string];
      expect(sellerId).toMatch(/^A[0-9A-Z]{12,14}$/);
      const profile = await fetch(`${sim.url}/sp?seller=${sellerId}`);
      expect(profile.status).toBe(200);
      const seller = parseSellerPage(await profile.text(), { origin: sim.url, sellerId });
      expect(seller.recognized).toBe(true);
      expect(seller.seller?.name).toBe(name.replace(/&amp;/g, '&'));
      checked += 1;
    }
    expect(checked).toBe(3);
  });
});
