import { errors } from '@crawl/errors';
import type { FastifyInstance } from 'fastify';

/**
 * An OPTIONS request that is not a CORS preflight (no `Origin` or no
 * `Access-Control-Request-Method`) is refused in the error envelope. @fastify/cors refuses it
 * too, but as plain text; this hook runs first (register it before the plugin).
 */
export function guardPreflights(app: FastifyInstance): void {
  // A callback hook: it runs on every request, and an async one costs a promise each time.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method !== 'OPTIONS') return done();
    const missing = ['origin', 'access-control-request-method'].filter((header) => !request.headers[header]);
    if (missing.length > 0) {
      throw errors.validation(
        'An OPTIONS request must be a CORS preflight',
        missing.map((header) => `header ${header} is required`),
      );
    }
    done();
  });
}
