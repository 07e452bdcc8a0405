import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Routes declared `noStore` (their answers carry tokens or secrets) answer with
 * `Cache-Control: no-store`, errors included: no browser, proxy or CDN keeps a copy. On the
 * gateway this covers forwarded routes too, whatever the owner sent.
 */
export const noStorePlugin = fp(
  async function noStore(app: FastifyInstance) {
    // A callback hook: it runs on every answer, and an async one costs a promise each time.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.routeOptions.config?.noStore === true) void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      done(null, payload);
    });
  },
  { name: 'crawl-no-store' },
);
