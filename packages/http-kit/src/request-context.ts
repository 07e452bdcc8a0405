import { currentLogContext, runWithLogContext, type LogContext } from '@crawl/logging';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The ids every log line of this request carries (request id, organization, job). */
    logContext: LogContext | null;
  }
}

/**
 * Puts each request's log context in place for everything the request runs: its request id at
 * once, its organization as soon as access control knows the caller. The context is entered
 * again before validation when body parsing resumed from the socket's callbacks, outside it (a
 * request without a body is still inside). Outgoing service calls and queued tasks take the
 * request id from it.
 */
export const requestContextPlugin = fp(
  async function requestContext(app: FastifyInstance) {
    app.decorateRequest('logContext', null);
    app.addHook('onRequest', (request, _reply, done) => {
      const context: LogContext = { reqId: request.id };
      request.logContext = context;
      runWithLogContext(context, done);
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const context = request.logContext ?? { reqId: request.id };
      const orgId = request.identity?.organizationId;
      if (orgId !== undefined) context.orgId = orgId;
      if (currentLogContext() === context) done();
      else runWithLogContext(context, done);
    });
  },
  { name: 'crawl-request-context' },
);
