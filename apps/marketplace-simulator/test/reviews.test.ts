import { detectBlock, MARKETPLACE_DOMAINS, parseReviewsPage } from '@crawl/marketplace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSimulator,
  getProduct,
  MAX_REVIEW_PAGES,
  PRODUCT_LAYOUTS,
  renderProductPage,
  makeCatalogAsin,
  REVIEWS_LAYOUTS,
  renderReviewsPage,
  reviewContent,
  reviewListing,
  reviewsWallOf,
  type Simulator,
  STAR_FILTERS,
  topReviewsBlock,
  WELL_KNOWN_ASINS,
} from '../src/index.ts';

const ALL = { filter: 'all_stars', sort: 'helpful', verifiedOnly: false } as const;

/** Catalog products with more written reviews than the list's cap reaches. */
function productsWithManyReviews(count: number): string[] {
  const found: string[] = [];
  for (let i = 0; found.length < count && i < 5000; i++) {
    const asin = makeCatalogAsin(i % 10, `reviews-${i}`);
    const product = getProduct(asin);
    if (product && reviewListing(product, ALL, 1).totalReviews > 400) found.push(asin);
  }
  return found;
}

describe('review list pages', () => {
  const asin = productsWithManyReviews(1)[0] as string;
  const product = getProduct(asin);
  if (!product) throw new Error('no product');

  it.each(REVIEWS_LAYOUTS.flatMap((layout) => MARKETPLACE_DOMAINS.map((domain) => [layout, domain] as const)))(
    '%s on %s: the parser reads what the catalog holds',
    (layout, domain) => {
      const rendered = renderReviewsPage({ asin, query: ALL, page: 2, domain, layout, size: 'small' });
      if (!rendered) throw new Error('no page');
      const page = parseReviewsPage(rendered.html, { origin: `https://www.${domain}` });
      expect(page.recognized).toBe(true);
      expect(page.totalRatings).toBe(rendered.listing.totalRatings);
      expect(page.totalReviews).toBe(rendered.listing.totalReviews);
      expect(page.hasNextPage).toBe(true);
      expect(page.reviews).toHaveLength(10);
      page.reviews.forEach((review, i) => {
        const truth = rendered.listing.reviews[i];
        if (!truth) throw new Error('missing truth');
        const content = reviewContent(product, truth);
        expect(review.reviewId).toBe(truth.id);
        expect(review.rating).toBe(truth.stars);
        expect(review.date).toBe(truth.date);
        expect(review.country).toBeDefined();
        expect(review.verifiedPurchase).toBe(truth.verified);
        expect(review.helpfulVotes).toBe(truth.helpfulVotes === 0 ? undefined : truth.helpfulVotes);
        expect(review.title).toBe(content.title);
        expect(review.body).toBe(content.body.join('\n'));
        expect(review.authorName).toBe(content.authorName);
        expect(review.authorProfileId).toBe(content.profileId);
        expect(review.images?.length ?? 0).toBe(content.imageIds.length);
        expect(review.variant === undefined).toBe(content.variant === undefined);
      });
    },
  );

  it('reads the storefront language of a switched page and of full-size pages', () => {
    for (const [domain, language] of [
      ['amazon.de', 'en_GB'],
      ['amazon.com', 'es_US'],
    ] as const) {
      const rendered = renderReviewsPage({ asin, query: ALL, page: 1, domain, language, size: 'full' });
      const page = parseReviewsPage(rendered?.html ?? '', { origin: `https://www.${domain}` });
      expect(rendered?.html.length).toBeGreaterThan(900_000);
      expect(page.reviews.map((r) => r.date)).toEqual(rendered?.listing.reviews.map((r) => r.date));
    }
  });

  it('caps every filter at ten pages and sorts as asked', () => {
    const last = reviewListing(product, ALL, MAX_REVIEW_PAGES);
    expect(last.reviews).toHaveLength(10);
    expect(last.hasNextPage).toBe(false);
    expect(reviewListing(product, ALL, MAX_REVIEW_PAGES + 1).reviews).toEqual([]);
    const recent = reviewListing(product, { ...ALL, sort: 'recent' }, 1).reviews;
    expect(recent.map((r) => r.date)).toEqual([...recent.map((r) => r.date)].sort().reverse());
    const helpful = reviewListing(product, ALL, 1).reviews;
    expect(helpful.map((r) => r.helpfulVotes)).toEqual([...helpful.map((r) => r.helpfulVotes)].sort((a, b) => b - a));
  });

  it('filters by star and by verified purchase, with the filter’s totals', () => {
    const byStar = STAR_FILTERS.slice(1, 6).map((filter) => reviewListing(product, { ...ALL, filter }, 1));
    expect(byStar.reduce((sum, l) => sum + l.totalReviews, 0)).toBe(reviewListing(product, ALL, 1).totalReviews);
    for (const [i, listing] of byStar.entries()) expect(listing.reviews.every((r) => r.stars === 5 - i)).toBe(true);
    const critical = reviewListing(product, { ...ALL, filter: 'critical' }, 1);
    expect(critical.reviews.every((r) => r.stars <= 3)).toBe(true);
    const verified = reviewListing(product, { ...ALL, verifiedOnly: true }, 1);
    expect(verified.reviews.every((r) => r.verified)).toBe(true);
    expect(verified.totalReviews).toBeLessThan(reviewListing(product, ALL, 1).totalReviews);
  });

  it('puts the most helpful reviews on the product page, where the parser reads them as the fallback', () => {
    const html = `<html><body><span id="productTitle">x</span>${topReviewsBlock(product, 'amazon.fr', 'fr')}</body></html>`;
    const page = parseReviewsPage(html, { origin: 'https://www.amazon.fr', accept: ['product_page'] });
    expect(page.recognized).toBe(true);
    expect(page.reviews.map((r) => r.reviewId)).toEqual(
      reviewListing(product, ALL, 1)
        .reviews.slice(0, 8)
        .map((r) => r.id),
    );
    expect(page.reviews.every((r) => r.country === 'France')).toBe(true);
  });
});

describe('product pages', () => {
  it('show the top reviews in every layout, as the fallback reads them', () => {
    const asin = productsWithManyReviews(1)[0] as string;
    for (const layout of PRODUCT_LAYOUTS) {
      const html = renderProductPage({ asin, domain: 'amazon.de', layout, size: 'small' })?.html ?? '';
      const page = parseReviewsPage(html, { origin: 'https://www.amazon.de', accept: ['product_page'] });
      expect(page.recognized).toBe(true);
      expect(page.reviews).toHaveLength(8);
      expect(page.reviews[0]?.country).toBe('Deutschland');
    }
  });
});

describe('reviews route', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
  });
  afterAll(async () => {
    await sim.close();
  });
  const open = productsWithManyReviews(40).find((a) => reviewsWallOf(a) === 'none') as string;
  const walledLater = productsWithManyReviews(40).find((a) => reviewsWallOf(a) === 'after_first_page') as string;

  it('serves the list with its filter, sort and page, as the parser reads it', async () => {
    const res = await fetch(`${sim.url}/product-reviews/${open}/ref=cm_cr_arp_d_viewopt_srt?sortBy=recent&filterByStar=critical&pageNumber=2&layout=cards`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sim-layout')).toBe('cards');
    const product = getProduct(open);
    if (!product) throw new Error('no product');
    const truth = reviewListing(product, { filter: 'critical', sort: 'recent', verifiedOnly: false }, 2);
    const page = parseReviewsPage(html, { origin: sim.url, marketplace: 'amazon.com' });
    expect(page.reviews.map((r) => r.reviewId)).toEqual(truth.reviews.map((r) => r.id));
    expect(page.totalReviews).toBe(truth.totalReviews);
  });

  it('sends the shopper to sign in past the first page where the product’s list is walled', async () => {
    const first = await fetch(`${sim.url}/product-reviews/${walledLater}`);
    expect(parseReviewsPage(await first.text(), { origin: sim.url }).recognized).toBe(true);
    const second = await fetch(`${sim.url}/product-reviews/${walledLater}?pageNumber=2`, { redirect: 'manual' });
    expect(second.status).toBe(302);
    expect(second.headers.get('location')).toMatch(/^\/ap\/signin\?openid\.return_to=/);
    const followed = await fetch(`${sim.url}/product-reviews/${walledLater}?pageNumber=2`);
    const html = await followed.text();
    expect(followed.url).toContain('/ap/signin');
    expect(detectBlock({ status: followed.status, html })).toEqual({ blocked: false });
    expect(parseReviewsPage(html, { origin: sim.url })).toMatchObject({ kind: 'signin', recognized: false, signInWall: true });
  });

  it('walls on request (sim_signin) and not at all with sim_signin=0', async () => {
    const walled = await fetch(`${sim.url}/product-reviews/${open}?sim_signin=all`);
    expect(parseReviewsPage(await walled.text(), { origin: sim.url }).signInWall).toBe(true);
    const opened = await fetch(`${sim.url}/product-reviews/${walledLater}?pageNumber=3&sim_signin=0`);
    expect(parseReviewsPage(await opened.text(), { origin: sim.url }).reviews).toHaveLength(10);
  });

  it('answers 404 for an unknown ASIN and the fault pages for the special ones', async () => {
    expect((await fetch(`${sim.url}/product-reviews/B0NOTFOUND`)).status).toBe(404);
    const blocked = await fetch(`${sim.url}/product-reviews/B0BLOCKED1`);
    expect(detectBlock({ status: blocked.status, html: await blocked.text() })).toMatchObject({ blocked: true, reason: 'captcha' });
    expect(sim.stats().byRoute.reviews).toBeGreaterThan(0);
  });

  it('serves a list for the well-known products', async () => {
    const res = await fetch(`${sim.url}/product-reviews/${WELL_KNOWN_ASINS[0]}?sim_signin=0`);
    expect(parseReviewsPage(await res.text(), { origin: sim.url }).recognized).toBe(true);
  });
});
