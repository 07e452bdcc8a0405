import { SECURITY_HEADERS } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';

/** Pages a browser renders: they get Helmet's whole policy instead (openapi-routes.ts). */
export const HTML_PREFIX = '/docs';

/**
 * The API's security headers on every answer but the HTML pages: set before anything else runs,
 * so an error answered by a later hook, the router or the error handler carries them too.
 */
export function installApiHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.url?.startsWith(HTML_PREFIX)) reply.headers(SECURITY_HEADERS);
    done();
  });
}
