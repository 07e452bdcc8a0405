import { CrawlClient } from '@crawl/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/index.ts';

/** A client whose every request gets `answer`, the requests kept for the test to read. */
function stubbedClient(answer: (url: URL, init: RequestInit | undefined) => Response): { client: CrawlClient; urls: URL[] } {
  const urls: URL[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    urls.push(url);
    return answer(url, init);
  };
  return { client: new CrawlClient({ baseUrl: 'http://api.test', token: 't', retry: false, fetch: fetch as typeof globalThis.fetch }), urls };
}

async function connected(crawl: CrawlClient, options: Parameters<typeof createMcpServer>[1] = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(crawl, options).connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return client;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('createMcpServer', () => {
  it('lists each tool with its input as JSON Schema, with no TypeBox symbols, and read-only tools marked so', async () => {
    const client = await connected(stubbedClient(() => json(500, {})).client);
    const { tools } = await client.listTools();
    const status = tools.find((tool) => tool.name === 'job_status');
    expect(status?.inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['jobId'],
      properties: { jobId: expect.objectContaining({ type: 'string' }) },
    });
    expect(status?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === 'create_job')?.annotations?.readOnlyHint).toBe(false);
  });

  it("an API error answer is a tool error with the API's status, code, message and details", async () => {
    const { client: crawl } = stubbedClient(() =>
      json(400, { success: false, error: { code: 'VALIDATION_ERROR', message: 'targets[0] is not an ASIN', details: ['targets[0]'] } }),
    );
    const result = await (await connected(crawl)).callTool({ name: 'create_job', arguments: { projectId: 'p1', type: 'details', targets: ['x'] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^400 VALIDATION_ERROR: targets\[0\] is not an ASIN\n\[/);
  });

  it('arguments outside the schema are refused before any request', async () => {
    const { client: crawl, urls } = stubbedClient(() => json(200, {}));
    const result = await (await connected(crawl)).callTool({ name: 'job_results', arguments: { jobId: 'j1', pageSize: 0 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Invalid arguments for job_results: /pageSize');
    expect(urls).toEqual([]);
  });

  it("a tool without projectId works in the server's default project", async () => {
    const { client: crawl, urls } = stubbedClient(() => json(200, { success: true, data: { credits: 5 } }));
    const result = await (await connected(crawl, { projectId: 'proj_default' })).callTool({
      name: 'estimate_job',
      arguments: { type: 'search', targets: ['lamp'] },
    });
    expect(JSON.parse(text(result))).toEqual({ credits: 5 });
    expect(urls.map((url) => url.pathname)).toEqual(['/projects/proj_default/jobs/estimate']);
  });
});
