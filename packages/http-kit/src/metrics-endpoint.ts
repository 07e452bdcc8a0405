import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { ProcessMetrics } from '@crawl/metrics';
import type { FastifyInstance, FastifySchema } from 'fastify';

export interface MetricsExposure {
  /** A listener of its own for `/metrics` (nothing else is served there). */
  port?: number | undefined;
  host: string;
  /** Required as `Authorization: Bearer …` when set. */
  token?: string | undefined;
  /** The gateway runs in this process, so its port is the public one. */
  publicPort: boolean;
}

/**
 * Where `/metrics` is served. With METRICS_PORT: only on that port (the one a NetworkPolicy opens
 * to the monitoring namespace), never on the service's own. Without it: on the service's port,
 * except on the public one (where the gateway runs), which serves it only with METRICS_TOKEN set.
 * METRICS_TOKEN, when set, is required wherever it is served.
 */
export function servesMetricsOnAppPort(exposure: MetricsExposure): boolean {
  return exposure.port === undefined && (!exposure.publicPort || exposure.token !== undefined);
}

export function registerMetricsRoute(app: FastifyInstance, metrics: ProcessMetrics, token: string | undefined): void {
  app.route({
    method: 'GET',
    url: '/metrics',
    config: { access: 'public' },
    schema: { hide: true } as FastifySchema,
    handler: async (request, reply) => {
      if (!authorized(request.headers.authorization, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: { code: 'UNAUTHORIZED', message: 'Metrics need the metrics token', details: [] } });
      }
      const { contentType, body } = await metrics.render();
      return reply.type(contentType).send(body);
    },
  });
}

/** The separate metrics listener; resolves with its address once listening. */
export async function listenForMetrics(metrics: ProcessMetrics, exposure: MetricsExposure & { port: number }): Promise<{ server: Server; address: string }> {
  const server = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (!authorized(request.headers.authorization, exposure.token)) {
      response.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' }).end('metrics token required\n');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(exposure.port, exposure.host, () => resolve());
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : exposure.port;
  return { server, address: `http://${exposure.host.includes(':') ? `[${exposure.host}]` : exposure.host}:${port}` };
}

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
