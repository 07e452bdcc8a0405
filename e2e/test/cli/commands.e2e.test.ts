import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { homeEnv, isolatedHome, runInProcess } from './cli-runner.ts';

describe('crawl commands against a running all-in-one', () => {
  let api: ListeningService;
  const home = isolatedHome();
  const run = (argv: string[], options: { tty?: boolean; env?: Record<string, string> } = {}) => runInProcess(argv, { home, ...options });
  let projectId: string;
  let jobId: string;

  beforeAll(async () => {
    api = await startListeningAllInOne();
    const login = await run([
      'login',
      '--base-url',
      api.url,
      '--email',
      `cmd-${Date.now()}@example.com`,
      '--password',
      'a-long-enough-password',
      '--register',
      '--json',
    ]);
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ registered: true, baseUrl: api.url });
    const project = await run(['projects', 'create', 'Research', '--json']);
    projectId = JSON.parse(project.stdout).id;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('without a login, says how to log in (exit code 2)', async () => {
    const result = await runInProcess(['usage'], { home: isolatedHome() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not logged in: run `crawl login');
  });

  it('--json prints the API objects for scripts; lists read as tables otherwise', async () => {
    const list = await run(['projects', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((p: { id: string }) => p.id)).toEqual([projectId]);
    const table = await run(['projects', 'list']);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+ARCHIVED\s+CREATED$/m);
    expect(table.stdout).toContain('Research');
    // No colour codes when stdout is not a terminal.
    expect(table.stdout).not.toContain('\u001b[');
  });

  it('creates a job from --targets-file and --config, waits with a live bar on a terminal, and reads results as table, CSV and JSON', async () => {
    writeFileSync(join(home, 'targets.txt'), '# keywords\nlaptop stand\n\nmechanical keyboard\n');
    const created = await run(
      ['jobs', 'create', '--project', projectId, '--type', 'search', '--targets-file', 'targets.txt', '--config', 'lang=en-US', '--wait'],
      { tty: true },
    );
    expect(created.code, created.stderr).toBe(0);
    // The bar is drawn on stderr with the counts and an ETA; the result line goes to stdout.
    expect(created.stderr).toContain('\u2588');
    expect(created.stderr).toMatch(/2 done.*0 failed.* \/ 2 \| .*completed/);
    expect(created.stderr).toContain('ETA');
    expect(created.stdout).toMatch(/Job \S+ .*completed.*: 2 done, 0 failed of 2 target\(s\), \d+ result\(s\); 2 charged, 0 uncharged/);
    jobId = /Job (\S+) /.exec(stripVTControlCharacters(created.stdout))?.[1] as string;
    const described = (await run(['jobs', 'get', jobId])).stdout;
    expect(described).toMatch(/^charged:\s+2 charged, 0 uncharged$/m);
    expect(described).toMatch(/^#\s+TARGET\s+STATUS\s+RESULTS\s+CHARGED\s+REASON$/m);
    expect(described).toMatch(/^0\s+laptop stand\s+success\s+\d+\s+yes$/m);

    const job = JSON.parse((await run(['jobs', 'get', jobId, '--json'])).stdout);
    expect(job).toMatchObject({ id: jobId, status: 'completed', config: { lang: 'en-US' } });
    expect(job.targets.map((t: { value: string }) => t.value)).toEqual(['laptop stand', 'mechanical keyboard']);

    const table = await run(['results', jobId, '--limit', '5']);
    expect(table.stdout).toMatch(/^.*ASIN.*TITLE.*PRICE/m);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(6);

    const csv = await run(['results', jobId, '--format', 'csv']);
    const [header, ...rows] = csv.stdout.trimEnd().split('\n');
    expect(header?.split(',')).toEqual(expect.arrayContaining(['asin', 'title', 'price.amount', 'price.currency']));
    expect(rows.length).toBeGreaterThanOrEqual(job.resultCount);

    const json = JSON.parse((await run(['results', jobId, '--format', 'json'])).stdout);
    expect(json).toHaveLength(job.resultCount);

    const listed = await run(['jobs', 'list', '--project', projectId, '--status', 'completed', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject({ data: [{ id: jobId }], meta: { total: 1 } });
  });

  it('exports to a file or to standard output, and refuses an unfinished job before spending an export', async () => {
    const toFile = await run(['export', jobId, '--format', 'json', '-o', 'out.json', '--json']);
    expect(toFile.code, toFile.stderr).toBe(0);
    const saved = JSON.parse(toFile.stdout);
    expect(saved).toMatchObject({ jobId, format: 'json', file: join(home, 'out.json') });
    const items = JSON.parse(readFileSync(join(home, 'out.json'), 'utf8'));
    expect(items).toHaveLength(saved.rows);
    expect(saved.bytes).toBe(readFileSync(join(home, 'out.json')).length);
    expect(existsSync(join(home, 'out.json.part'))).toBe(false);

    const toStdout = await run(['export', jobId, '--format', 'csv']);
    expect(toStdout.stdout.split('\n')[0]).toMatch(/asin/);

    const queued = JSON.parse((await run(['jobs', 'create', '--project', projectId, '--type', 'details', '--target', 'B0SIM00001', '--json'])).stdout);
    const refused = await run(['export', queued.id, '--format', 'csv', '-o', 'partial.csv']);
    if (refused.code !== 0) expect(refused.stderr).toMatch(/still (queued|running)/);
    else expect(refused.stdout).toContain('Saved'); // the job was already done by then
  });

  it('reports API errors with their code, on stderr as JSON with --json', async () => {
    const cancel = await run(['jobs', 'cancel', jobId]);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toMatch(/\(CONFLICT, HTTP 409\)/);
    const json = await run(['jobs', 'get', 'nope', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'NOT_FOUND', status: 404 } });
    const usage = await run(['jobs', 'create', '--project', projectId, '--type', 'music', '--target', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--type must be one of search, details, reviews');
  });

  it('schedules, webhooks and usage', async () => {
    const schedule = JSON.parse(
      (await run(['schedules', 'create', '--project', projectId, '--cron', '0 6 * * *', '--type', 'search', '--target', 'desk lamp', '--json'])).stdout,
    );
    expect(schedule).toMatchObject({ cron: '0 6 * * *', enabled: true });
    expect(JSON.parse((await run(['schedules', 'disable', schedule.id, '--json'])).stdout).enabled).toBe(false);
    expect((await run(['schedules', 'list', '--project', projectId])).stdout).toContain(schedule.id);

    const hook = await run(['webhooks', 'create', '--project', projectId, '--url', 'http://127.0.0.1:9/hook', '--event', 'job.completed']);
    expect(hook.stdout).toMatch(/signing secret \(shown only now\): whsec_/);
    const hooks = JSON.parse((await run(['webhooks', 'list', '--project', projectId, '--json'])).stdout);
    expect(hooks).toMatchObject([{ url: 'http://127.0.0.1:9/hook', events: ['job.completed'] }]);
    expect((await run(['webhooks', 'delete', hooks[0].id])).code).toBe(0);

    const usage = await run(['usage']);
    expect(usage.stdout).toMatch(/^jobs\s+\d+\s+\d+\s+\d+$/m);
    expect(usage.stdout).toMatch(/credits: \d+ available/);
    expect(usage.stdout).toMatch(/^targets settled: [1-9]\d* charged, \d+ uncharged \(delivered without charge\)$/m);
  });

  it('logout forgets the token', async () => {
    const other = isolatedHome();
    await runInProcess(['login', '--base-url', api.url, '--email', `out-${Date.now()}@example.com`, '--password', 'a-long-enough-password', '--register'], {
      home: other,
    });
    const file = join(homeEnv(other).XDG_CONFIG_HOME, 'crawl', 'credentials.json');
    expect(existsSync(file)).toBe(true);
    const out = await runInProcess(['logout'], { home: other });
    expect(out.stdout).toContain('Logged out');
    expect(existsSync(file)).toBe(false);
    expect((await runInProcess(['whoami'], { home: other })).code).toBe(2);
  });
});
