import type { FastifyInstance } from 'fastify';

/**
 * Every body is JSON. An empty one counts as none: clients send `Content-Type: application/json`
 * on body-less POSTs (retry, cancel, logout). text/plain gets 415 like any other type, not a
 * schema error about a string.
 */
export function acceptJsonBodiesOnly(app: FastifyInstance): void {
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return defaultJson(request, body as string, done);
  });
}
