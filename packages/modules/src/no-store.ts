import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Routes declared `noStore` (their answers carry tokens or secrets) answer with
 * `Cache-Control: no-store`, errors included: no browser, proxy or CDN keeps a copy. On the
 * gateway this covers forwarded routes too, whatever the owner sent.
 */
export const noStorePlugin = fp(
  async function noStore(app: FastifyInstance) {
    app.addHook('onSend', async (request, reply) => {
      if (request.routeOptions.config?.noStore !== true) return;
      void reply.header('cache-control', 'no-store');
      void reply.header('pragma', 'no-cache');
    });
  },
  { name: 'crawl-no-store' },
);
