import { AppError } from '@crawl/errors';
import { createMcpServer } from '@crawl/mcp';
import { CrawlClient } from '@crawl/sdk';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { injectFetch } from './inject-fetch.ts';

export const MCP_PATH = '/mcp';

/** The origin the in-process client's URLs carry; nothing connects to it (requests are injected). */
const IN_PROCESS_ORIGIN = 'http://in-process.invalid';
const BEARER = /^bearer[ \t]+(\S+)$/i;

/** RFC 6750: a 401 names the scheme it wants, so an MCP client knows to send a bearer token. */
const bearerChallenge: onSendHookHandler = (_request, reply, payload, done) => {
  if (reply.statusCode === 401) void reply.header('www-authenticate', 'Bearer');
  done(null, payload);
};

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (each request a server of its own,
 * no session to keep between replicas), answering JSON. The route needs a user's token like any
 * API route; the tools then call the API as that user through this process's own routes (see
 * injectFetch), so they see what the token may see and nothing more, in every run mode.
 */
export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const config = { access: 'user', owner: 'gateway' } as const;
  app.route({ method: 'POST', url: MCP_PATH, config, onSend: bearerChallenge, handler: (request, reply) => serveMcp(app, request, reply) });
  // No server-initiated stream and no session to end in stateless mode.
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    config,
    onSend: bearerChallenge,
    handler: async () => {
      throw new AppError('METHOD_NOT_ALLOWED', 'The MCP endpoint is stateless: send JSON-RPC messages with POST', 405, [], { allow: 'POST' });
    },
  });
}

async function serveMcp(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = BEARER.exec(request.headers.authorization?.trim() ?? '')?.[1];
  const client = new CrawlClient({ baseUrl: IN_PROCESS_ORIGIN, fetch: injectFetch(app, request.ip), retry: false, ...(token ? { token } : {}) });
  const server = createMcpServer(client, {
    downloadBaseUrl: `${request.protocol}://${request.host}`,
    onUnexpectedError: (error, tool) => request.log.error({ err: error, tool }, 'MCP tool failed'),
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
}
