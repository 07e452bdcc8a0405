import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/** Marks an answer as not to be kept; a callback hook, as an async one costs a promise. */
const markNoStore: onSendHookHandler = function markNoStore(_request, reply, payload, done) {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  done(null, payload);
};

/**
 * Routes declared `noStore` (their answers carry tokens or secrets) answer with
 * `Cache-Control: no-store`, errors included: no browser, proxy or CDN keeps a copy. On the
 * gateway this covers forwarded routes too, whatever the owner sent. The hook is the route's own
 * (it runs for every answer of that route, errors included): the other routes pay nothing.
 */
export const noStorePlugin = fp(
  async function noStore(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      if (route.config?.noStore !== true) return;
      const existing = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
      route.onSend = [...existing, markNoStore];
    });
  },
  { name: 'crawl-no-store' },
);
