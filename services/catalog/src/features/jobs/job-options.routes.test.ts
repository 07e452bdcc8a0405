import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';

describe.each(testBackends())('job options: sort, lang, deliveryZip ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let projectId: string;

  const createJob = (body: unknown) => h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body });

  beforeEach(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterEach(async () => {
    await h.close();
  });

  it('accepts each sort, a language the storefront offers and its postal code, and keeps them on the job', async () => {
    for (const sort of ['featured', 'price_asc', 'price_desc', 'avg_review', 'newest']) {
      const res = await createJob({ type: 'search', targets: ['kettle'], config: { sort, domain: 'amazon.de', lang: 'en-GB', deliveryZip: '10115' } });
      expect(res.status, sort).toBe(201);
      expect(res.body.data.config).toMatchObject({ sort, lang: 'en-GB', deliveryZip: '10115' });
    }
    const uk = await createJob({ type: 'details', targets: ['B000000001'], config: { domain: 'amazon.co.uk', deliveryZip: 'SW1A 1AA', lang: 'en' } });
    expect(uk.status).toBe(201);
    const anywhere = await createJob({ type: 'search', targets: ['kettle'], config: { lang: 'fr', deliveryZip: '75001' } });
    expect(anywhere.status).toBe(201);
  });

  it.each([
    [
      'an unknown sort',
      { type: 'search', targets: ['x'], config: { sort: 'cheapest' } },
      'config.sort must be one of "featured", "price_asc", "price_desc", "avg_review", "newest", "recent", "helpful"',
    ],
    [
      'a sort on a details job',
      { type: 'details', targets: ['B000000001'], config: { sort: 'newest' } },
      'config.sort applies to search, category and reviews jobs only',
    ],
    [
      'a reviews sort on a search job',
      { type: 'search', targets: ['x'], config: { sort: 'recent' } },
      'config.sort of a search job must be one of featured, price_asc, price_desc, avg_review, newest',
    ],
    [
      'a search sort on a reviews job',
      { type: 'reviews', targets: ['B000000001'], config: { sort: 'newest' } },
      'config.sort of a reviews job must be one of recent, helpful',
    ],
    ['star filters on a details job', { type: 'details', targets: ['B000000001'], config: { stars: [5] } }, 'config.stars applies to reviews jobs only'],
    [
      'an offer condition on a reviews job',
      { type: 'reviews', targets: ['B000000001'], config: { condition: 'used' } },
      'config.condition applies to offers jobs only',
    ],
    [
      'a best-seller list on a category job',
      { type: 'category', targets: ['172282'], config: { list: 'new-releases' } },
      'config.list applies to bestsellers jobs only',
    ],
    [
      'a day that does not exist',
      { type: 'reviews', targets: ['B000000001'], config: { since: '2026-13-45' } },
      'config.since "2026-13-45" is not a calendar date',
    ],
    [
      'a language the storefront does not offer',
      { type: 'search', targets: ['x'], config: { domain: 'amazon.fr', lang: 'de' } },
      'config.lang "de" is not offered by amazon.fr; use one of fr-FR, en-GB',
    ],
    [
      'a postal code of another country',
      { type: 'search', targets: ['x'], config: { domain: 'amazon.de', deliveryZip: 'SW1A 1AA' } },
      'config.deliveryZip "SW1A 1AA" is not a postal code of amazon.de',
    ],
    [
      'a postal code where the storefront takes none',
      { type: 'search', targets: ['x'], config: { domain: 'amazon.ae', deliveryZip: '12345' } },
      'config.deliveryZip: amazon.ae takes no postal code as delivery location',
    ],
  ])('answers %s with 400 in the error envelope, reserving nothing', async (_label, body, message) => {
    const res = await createJob(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message } });
    expect(h.billing.reservations.size).toBe(0);
  });

  it('answers a malformed postal code with 400 naming the field', async () => {
    const res = await createJob({ type: 'search', targets: ['x'], config: { deliveryZip: '<script>' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toMatch(/^config\.deliveryZip /);
  });
});
