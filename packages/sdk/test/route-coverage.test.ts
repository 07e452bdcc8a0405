import { PUBLIC_ROUTES } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import { CrawlClient } from '../src/index.ts';

/** Answers every request with a body every method can read, and records what was asked. */
function recordingFetch(calls: Array<{ method: string; path: string }>): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    calls.push({ method: init?.method ?? 'GET', path: url.pathname });
    if (/^\/jobs\/[^/]+\/events$/.test(url.pathname)) {
      const end = { id: 'j', status: 'completed', targets: [] };
      return new Response(`id: 1\nevent: end\ndata: ${JSON.stringify(end)}\n\n`, { headers: { 'content-type': 'text/event-stream' } });
    }
    const isList =
      (init?.method ?? 'GET') === 'GET' &&
      /\/(projects|jobs|schedules|webhooks|deliveries|destinations|audit|packages|ledger|monitors|events|target-lists)$/.test(url.pathname);
    const item = {
      targets: [],
      items: [],
      points: [],
      nextCursor: null,
      pagination: { nextCursor: null },
      accessToken: 't',
      user: { id: 'u', email: 'e', name: 'n' },
    };
    return Response.json({ ...item, handoffToken: 'h', data: isList ? [] : item, meta: { total: 0, limit: 20, offset: 0 } });
  };
}

describe('every public route has a client method', () => {
  it('calling each method reaches each route of the contracts, and no route is left out', async () => {
    const calls: Array<{ method: string; path: string }> = [];
    const crawl = new CrawlClient({ baseUrl: 'http://api.test', fetch: recordingFetch(calls) });
    const login = { email: 'a@b.c', password: 'a-long-password' };
    await crawl.health();
    await crawl.auth.register(login);
    await crawl.auth.login(login);
    await crawl.auth.loginHandoff(login);
    await crawl.auth.verifyHandoff({ handoffToken: 'h' });
    await crawl.auth.me();
    await crawl.auth.logout();
    await crawl.projects.list();
    await crawl.projects.create({ name: 'p' });
    await crawl.projects.archive('p1');
    await crawl.jobs.create('p1', { type: 'search', targets: ['x'] });
    await crawl.jobs.estimate('p1', { type: 'search', targets: ['x'], maxCredits: 10 });
    await crawl.jobs.list('p1');
    await crawl.jobs.get('j1');
    await crawl.jobs.resultsPage('j1');
    await (await crawl.jobs.export('j1', { format: 'csv' })).stream.cancel();
    await crawl.jobs.retry('j1');
    await crawl.jobs.cancel('j1');
    await crawl.jobs.wait('j1');
    await crawl.schedules.create('p1', { cron: '0 6 * * *', crawlConfig: { type: 'search', targets: ['x'] } });
    await crawl.schedules.list('p1');
    await crawl.schedules.disable('s1');
    await crawl.audit.list();
    await crawl.webhooks.create('p1', { url: 'https://example.com/hook' });
    await crawl.webhooks.list('p1');
    await crawl.webhooks.update('w1', { enabled: false });
    await crawl.webhooks.delete('w1');
    await crawl.webhooks.rotateSecret('w1');
    await crawl.webhooks.test('w1');
    await crawl.webhooks.deliveries('w1');
    await crawl.webhooks.replay('w1', 'd1');
    await crawl.destinations.create('p1', { type: 's3', bucket: 'b', region: 'us-east-1', accessKeyId: 'k', secretAccessKey: 's' } as never);
    await crawl.destinations.list('p1');
    await crawl.destinations.get('d1');
    await crawl.destinations.test('d1');
    await crawl.destinations.delete('d1');
    await crawl.jobs.deliveries('j1');
    await crawl.jobs.replayDelivery('j1', 'dd1');
    await crawl.history.product('B0SIM00001');
    await crawl.history.latest('B0SIM00001');
    await crawl.history.keywordRanks('usb c cable');
    const rule = { field: 'price' as const, op: 'dropsBy' as const, value: 10 };
    await crawl.monitors.create('p1', {
      name: 'm',
      type: 'details',
      targets: ['B0SIM00001'],
      domain: 'amazon.com',
      every: '1h',
      watch: ['price'],
      rules: [rule],
    });
    await crawl.monitors.list('p1');
    await crawl.monitors.get('m1');
    await crawl.monitors.update('m1', { name: 'n' });
    await crawl.monitors.pause('m1');
    await crawl.monitors.resume('m1');
    await crawl.monitors.run('m1');
    await crawl.monitors.events('m1');
    await crawl.monitors.delete('m1');
    await crawl.targetLists.upload('p1', { type: 'details' }, 'B0SIM00001\n');
    await crawl.targetLists.list('p1');
    await crawl.targetLists.get('tl1');
    await crawl.targetLists.delete('tl1');
    await crawl.usage();
    await crawl.dailyCredits('2026-11');
    await crawl.credits.packages();
    await crawl.credits.checkout({ packageId: 'pkg' } as never);
    await crawl.referral.code();
    await crawl.referral.click({ code: 'c' } as never);
    await crawl.referral.follow('c0de');
    await crawl.referral.stats();
    await crawl.admin.grantCredits('o1', { amount: 1, reason: 'r' } as never);
    await crawl.admin.setLimits('o1', {} as never);
    await crawl.admin.usage('o1');
    await crawl.admin.ledger('o1');
    await crawl.admin.reconcile();
    await crawl.admin.crawlerRate();
    await crawl.admin.setCrawlerRate({ perMinute: 60 } as never);
    await crawl.admin.queueStats();

    const reached = new Set<string>();
    for (const call of calls) {
      const route = PUBLIC_ROUTES.find((r) => r.method === call.method && new RegExp(`^${r.url.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(call.path));
      if (route) reached.add(`${route.method} ${route.url}`);
    }
    const all = PUBLIC_ROUTES.map((r) => `${r.method} ${r.url}`);
    expect(all.filter((route) => !reached.has(route))).toEqual([]);
  });
});
