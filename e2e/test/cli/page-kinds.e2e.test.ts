import { CATEGORIES, makeCatalogAsin } from '@crawl/marketplace-simulator';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome, runInProcess } from './cli-runner.ts';

describe('crawl with every page kind, against a running all-in-one', () => {
  let api: ListeningService;
  const home = isolatedHome();
  const run = (argv: string[]) => runInProcess(argv, { home });
  let projectId: string;

  beforeAll(async () => {
    api = await startListeningAllInOne();
    const login = await run([
      'login',
      '--base-url',
      api.url,
      '--email',
      `kinds-${Date.now()}@example.com`,
      '--password',
      'a-long-enough-password',
      '--register',
    ]);
    expect(login.code, login.stderr).toBe(0);
    projectId = JSON.parse((await run(['projects', 'create', 'Kinds', '--json'])).stdout).id;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('jobs create --type reviews with typed --config, then the coverage and the review columns', async () => {
    const asin = makeCatalogAsin(5 % CATEGORIES.length, 'cli-kinds-5');
    const created = await run([
      'jobs',
      'create',
      '--project',
      projectId,
      '--type',
      'reviews',
      '--target',
      asin,
      '--config',
      'maxReviews=20',
      '--config',
      'stars=5,4',
      '--wait',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const jobId = /Job (\S+) /.exec(created.stdout)?.[1] as string;
    const job = JSON.parse((await run(['jobs', 'get', jobId, '--json'])).stdout);
    expect(job).toMatchObject({ type: 'reviews', status: 'completed', config: { maxReviews: 20, stars: [5, 4] }, creditsReserved: 2 });
    const described = (await run(['jobs', 'get', jobId])).stdout;
    expect(described).toMatch(/COVERAGE/);
    const table = (await run(['results', jobId])).stdout;
    expect(table).toMatch(/ASIN\s+RATING\s+TITLE\s+DATE/);
    const reviews = JSON.parse((await run(['results', jobId, '--format', 'json'])).stdout) as Array<{ rating: number }>;
    expect(reviews.length).toBe(job.resultCount);
    expect(reviews.every((review) => review.rating >= 4)).toBe(true);
  });

  it('refuses an option of another type before anything is reserved', async () => {
    const refused = await run(['jobs', 'create', '--project', projectId, '--type', 'offers', '--target', 'B0SIM00001', '--config', 'stars=5']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('config.stars applies to reviews jobs only');
  });

  it('--type names the types it takes when given another', async () => {
    const wrong = await run(['jobs', 'create', '--project', projectId, '--type', 'questions', '--target', 'x']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--type must be one of search, details, reviews, offers, bestsellers, category, seller, autocomplete');
  });
});
