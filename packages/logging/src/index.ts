import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's request id when it is sane, so a trace spans the gateway and the services. */
export function requestIdFrom(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

/** Pino options shared by every process: secrets redacted, the service named on each line. */
export function loggerOptions(level: string, service: string): LoggerOptions {
  return {
    level,
    base: { service },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-crawl-identity"]',
        'req.headers["x-internal-token"]',
        'password',
        '*.password',
        'accessToken',
        '*.accessToken',
      ],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(level: string, service: string): Logger {
  return pino(loggerOptions(level, service));
}
