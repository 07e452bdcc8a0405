import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CrawlClient } from '@crawl/sdk';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import { callError, callJson } from './tool-calls.ts';
import { toolsScenario } from './tools-scenario.ts';

function mcpClient(url: string, token: string): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  return { client: new Client({ name: 'e2e', version: '1.0.0' }), transport };
}

describe('/mcp (Streamable HTTP) on a running all-in-one', () => {
  let api: ListeningService;
  let projectId: string;
  let token: string;
  const opened: Client[] = [];

  const connect = async (as: string): Promise<Client> => {
    const { client, transport } = mcpClient(api.url, as);
    await client.connect(transport);
    opened.push(client);
    return client;
  };

  beforeAll(async () => {
    api = await startListeningAllInOne();
    token = (await api.service.registerUser()).token;
    projectId = (await new CrawlClient({ baseUrl: api.url, token }).projects.create({ name: 'Agents' })).id;
  });
  afterAll(async () => {
    for (const client of opened) await client.close();
    await api?.close();
  });

  it("lists the tools and runs create, status, results, export and estimate as the token's user; a refused target is a tool error", async () => {
    await toolsScenario(await connect(token), projectId);
  });

  it('without a token: 401 with WWW-Authenticate: Bearer, and the SDK client cannot connect', async () => {
    const response = await fetch(new URL('/mcp', api.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect((await response.json()).error.code).toBe('UNAUTHORIZED');
    const { client, transport } = mcpClient(api.url, 'not-a-token');
    await expect(client.connect(transport)).rejects.toThrow();
  });

  it("each request's tools act as its token's user: another organization's job is a 404", async () => {
    const mine = await callJson(await connect(token), 'create_job', { projectId, type: 'search', targets: ['bike light'] });
    const stranger = await connect((await api.service.registerUser()).token);
    expect(await callError(stranger, 'job_status', { jobId: mine.id })).toMatch(/^404 NOT_FOUND: /);
    // Its own first project does not exist yet: the tool says so rather than failing the call.
    expect(await callError(stranger, 'create_job', { type: 'search', targets: ['x'] })).toContain('no project');
  });

  it('GET /mcp is 405 (stateless: no server-initiated stream)', async () => {
    const response = await fetch(new URL('/mcp', api.url), { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
