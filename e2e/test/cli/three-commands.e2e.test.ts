import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { homeEnv, isolatedHome, runChild } from './cli-runner.ts';

describe('a new user: from a running service to an exported CSV in three commands (the `crawl` binary as a child process)', () => {
  let api: ListeningService;
  const home = isolatedHome();

  beforeAll(async () => {
    api = await startListeningAllInOne();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('login --register, jobs create --wait, export', async () => {
    const email = `cli-${Date.now()}@example.com`;
    const login = await runChild(['login', '--base-url', api.url, '--email', email, '--password', 'a-long-enough-password', '--register'], { home });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Registered and logged in as ${email} at ${api.url}`);

    // The token is the user's for 7 days: only its owner may read it.
    const file = join(homeEnv(home).XDG_CONFIG_HOME, 'crawl', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(homeEnv(home).XDG_CONFIG_HOME, 'crawl')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ baseUrl: api.url, email });

    const created = await runChild(['jobs', 'create', '--type', 'search', '--target', 'wireless headphones', '--target', 'usb-c cable', '--wait'], { home });
    expect(created.code, created.stderr).toBe(0);
    // Not a terminal: no bar, a line per status change on stderr, the outcome on stdout.
    expect(created.stderr).toMatch(/Created project Default \(\S+\) for your jobs/);
    expect(created.stderr).toMatch(/job \S+: completed \(2 done, 0 failed of 2\)/);
    expect(created.stderr).not.toContain('\u2588');
    const match = /^Job (\S+) completed.*: 2 done, 0 failed of 2 target\(s\), (\d+) result\(s\)/m.exec(created.stdout);
    expect(match, created.stdout).not.toBeNull();
    const [, jobId, results] = match as RegExpExecArray;
    expect(Number(results)).toBeGreaterThan(0);

    const exported = await runChild(['export', jobId as string, '--format', 'csv', '-o', 'results.csv'], { home });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`Saved ${results} result(s) of job ${jobId} to ${join(home, 'results.csv')}`);
    const csv = readFileSync(join(home, 'results.csv'), 'utf8');
    const [header, ...rows] = csv.trimEnd().split('\n');
    expect(header).toMatch(/(^|,)asin(,|$)/);
    expect(header).toMatch(/(^|,)title(,|$)/);
    expect(rows.length).toBeGreaterThanOrEqual(Number(results));
  });

  it("fails with the API's message and a non-zero exit code", async () => {
    const missing = await runChild(['jobs', 'get', 'job-that-does-not-exist'], { home });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^crawl: .*not found.* \(NOT_FOUND, HTTP 404\)/im);
  });
});
