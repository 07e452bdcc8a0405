import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { BIN, homeEnv, isolatedHome, runInProcess } from '../cli/cli-runner.ts';
import { callError, callJson } from './tool-calls.ts';
import { toolsScenario } from './tools-scenario.ts';

/** `crawl mcp` as an MCP client starts it: a child process speaking on stdin/stdout, with the stored login. */
function crawlMcp(home: string, args: string[] = []): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...homeEnv(home) },
    stderr: 'pipe',
  });
}

describe('crawl mcp (stdio) against a running all-in-one', () => {
  let api: ListeningService;
  const home = isolatedHome();
  let projectId: string;
  const client = new Client({ name: 'e2e', version: '1.0.0' });

  beforeAll(async () => {
    api = await startListeningAllInOne();
    const login = await runInProcess(
      ['login', '--base-url', api.url, '--email', `mcp-${Date.now()}@example.com`, '--password', 'a-long-enough-password', '--register', '--json'],
      { home },
    );
    expect(login.code, login.stderr).toBe(0);
    projectId = JSON.parse((await runInProcess(['projects', 'create', 'Agents', '--json'], { home })).stdout).id;
    await client.connect(crawlMcp(home));
  });
  afterAll(async () => {
    await client.close();
    await api?.close();
  });

  it('lists the tools and runs create, status, results, export and estimate; a refused target is a tool error', async () => {
    await toolsScenario(client, projectId);
  });

  it('works in the first project when a tool names none, and search_products waits for its results', async () => {
    const found = await callJson(client, 'search_products', { keyword: 'wireless mouse', limit: 3, waitSeconds: 60 });
    expect(found).toMatchObject({ status: 'completed', finished: true });
    expect(found.results).toHaveLength(3);
    const job = await callJson(client, 'job_status', { jobId: found.jobId });
    expect(job.projectId).toBe(projectId);
  });

  it('get_product crawls a product never observed, then answers from what was observed', async () => {
    const asin = (await callJson(client, 'search_products', { keyword: 'phone case', limit: 1 })).results[0].asin;
    const crawled = await callJson(client, 'get_product', { asin });
    expect(crawled).toMatchObject({ source: 'crawled', status: 'completed', product: { asin } });
    const observed = await callJson(client, 'get_product', { asin });
    expect(observed).toMatchObject({ source: 'observed', observation: { subject: { asin }, values: { inStock: true } } });
  });

  it('an unknown job is the API 404, as a tool error', async () => {
    expect(await callError(client, 'job_status', { jobId: 'job_does_not_exist' })).toMatch(/^404 NOT_FOUND: /);
  });

  it('without a login, crawl mcp stops with the hint and no server', async () => {
    const lonely = new Client({ name: 'e2e', version: '1.0.0' });
    await expect(lonely.connect(crawlMcp(isolatedHome()))).rejects.toThrow();
  });
});
