import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { currentLogContext, type LogContext } from './log-context.ts';

/** Pino options shared by every process: secrets redacted, the service named on each line. */
export function loggerOptions(level: string, service: string): LoggerOptions {
  return {
    level,
    base: { service },
    // The running request's or task's ids on every line, whoever logs it (a line's own fields win).
    mixin: currentLogContext,
    // Pino's default merge assigns the line's fields into the mixin's object: the shared context.
    mixinMergeStrategy: (line, context) => (isEmpty(context) ? line : { ...context, ...line }),
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

export type LogFormat = 'auto' | 'json' | 'pretty';

export interface LoggerOutput {
  /** Where lines go; default stdout. */
  destination?: DestinationStream;
  /** `auto` (default): pretty at a terminal outside production, JSON otherwise. */
  format?: LogFormat;
  /** Defaults to the process's NODE_ENV. */
  nodeEnv?: string | undefined;
  /** Defaults to whether stdout is a terminal. */
  isTerminal?: boolean;
}

/**
 * Readable lines for a person at a terminal in development; JSON lines for everything else
 * (log collectors, CI, production, pipes), one object per line.
 */
export function wantsPrettyLogs(format: LogFormat, nodeEnv: string | undefined, isTerminal: boolean): boolean {
  if (format !== 'auto') return format === 'pretty';
  return isTerminal && nodeEnv !== 'production';
}

export function createLogger(level: string, service: string, output: LoggerOutput = {}): Logger {
  const options = loggerOptions(level, service);
  if (output.destination) return pino(options, output.destination);
  const nodeEnv = 'nodeEnv' in output ? output.nodeEnv : process.env.NODE_ENV;
  if (wantsPrettyLogs(output.format ?? 'auto', nodeEnv, output.isTerminal ?? process.stdout.isTTY === true)) {
    // Synchronous, in this thread: a worker-thread transport would outlive a crash's last lines.
    return pino(options, pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  }
  return pino(options, pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS }));
}

/**
 * JSON lines are gathered up to this many bytes (about 15 request lines) before one write: a busy
 * process writes a few times a second instead of once per request. Pino flushes what is left when
 * the process exits, also after an uncaught error; a process killed outright loses at most this.
 */
const LOG_BUFFER_BYTES = 4096;
/** Lines of a quiet process wait at most this long for the buffer to fill. */
const LOG_FLUSH_MS = 500;

function isEmpty(context: LogContext): boolean {
  return context.reqId === undefined && context.orgId === undefined && context.jobId === undefined;
}
