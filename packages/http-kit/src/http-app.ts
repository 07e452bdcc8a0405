import { requestIdFrom, type Logger } from '@crawl/logging';
import Fastify, { type FastifyInstance } from 'fastify';
import { httpServerOptions, type HttpServerSettings } from './http-server-options.ts';
import { acceptJsonBodiesOnly } from './json-bodies.ts';
import { RequestLog } from './request-log.ts';
import { validatorCompiler } from './validators.ts';

/** The settings the app reads (RuntimeConfig has them, under the same names). */
export interface HttpAppSettings extends HttpServerSettings {
  readonly BODY_LIMIT_BYTES: number;
  readonly TRUST_PROXY: boolean;
}

export interface HttpAppOptions {
  readonly logger: Logger;
  /** The gateway runs in this process: it answers the clients, and their requests are logged at info. */
  readonly edge: boolean;
}

/**
 * The Fastify app a process serves from, before any plugin or route: the listener's limits, the
 * request ids and log lines, the validators and JSON-only bodies.
 */
export function createHttpApp(settings: HttpAppSettings, options: HttpAppOptions): FastifyInstance {
  // Typed as the default instance: plugins and modules need not know the logger's concrete type.
  const app = Fastify({
    loggerInstance: options.logger,
    genReqId: requestIdFrom,
    // One line per request instead of two, and at debug for internal calls.
    logController: new RequestLog(options.edge),
    // Request lines get the request id from the log context (request-context.ts), which every
    // line logged during the request carries: no child logger per request.
    childLoggerFactory: (parent) => parent,
    bodyLimit: settings.BODY_LIMIT_BYTES,
    trustProxy: settings.TRUST_PROXY,
    ...httpServerOptions(settings),
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler());
  acceptJsonBodiesOnly(app);
  return app;
}
