import type { ServerOptions } from 'node:http';
import { ConfigError } from '@crawl/config';
import type { FastifyServerOptions } from 'fastify';
import { clientErrorHandler, frameworkErrorHandler } from './http-errors.ts';

/** How often Node looks for requests past their header or request deadline; it never looks more often than this. */
const MAX_CHECK_INTERVAL_MS = 1_000;

/** The settings the listener's limits come from (RuntimeConfig has them, under the same names). */
export interface HttpServerSettings {
  readonly HTTP_HEADERS_TIMEOUT_MS: number;
  readonly HTTP_REQUEST_TIMEOUT_MS: number;
  readonly HTTP_IDLE_TIMEOUT_MS: number;
  readonly HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
}

/**
 * The listener's limits and its answers to requests that never reach a route. Without the
 * timeouts a client that sends its headers and part of a body, then nothing, holds a connection
 * (and its memory) for as long as it likes; Fastify's defaults set none.
 */
export function httpServerOptions(runtime: HttpServerSettings): FastifyServerOptions & { http: ServerOptions } {
  const headersTimeout = runtime.HTTP_HEADERS_TIMEOUT_MS;
  const requestTimeout = runtime.HTTP_REQUEST_TIMEOUT_MS;
  if (requestTimeout < headersTimeout) {
    throw new ConfigError([`HTTP_REQUEST_TIMEOUT_MS (${requestTimeout}) must be at least HTTP_HEADERS_TIMEOUT_MS (${headersTimeout})`]);
  }
  return {
    connectionTimeout: runtime.HTTP_IDLE_TIMEOUT_MS,
    keepAliveTimeout: runtime.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout,
    http: {
      headersTimeout,
      requestTimeout,
      // Node checks the deadlines every 30 s by default: a 10 s limit could hold for 40.
      connectionsCheckingInterval: Math.max(1, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(headersTimeout / 2))),
    },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  };
}
