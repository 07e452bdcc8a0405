import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { isoTimeOncePerMillisecond } from './iso-time.ts';
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
    timestamp: isoTimeOncePerMillisecond,
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
  return pino(options, batchedStdout());
}

/**
 * JSON lines are gathered up to this many bytes (about 45 request lines; sonic-boom takes less than
 * 16 KB) before one write: a busy process writes a few hundred times a second instead of once per
 * request.
 */
const LOG_BUFFER_BYTES = 12 * 1024;
/** Lines of a quiet process wait at most this long for the buffer to fill. */
const LOG_FLUSH_MS = 500;

let stdoutDestination: ReturnType<typeof pino.destination> | undefined;

/**
 * One buffered stdout destination for the process's loggers. Its writes are synchronous, so lines
 * leave in the order they were logged even at exit (an asynchronous write still in flight would be
 * overtaken by the exit's flush). What is buffered is written when the process exits, also after an
 * uncaught error; a process killed outright loses at most the last `LOG_FLUSH_MS`.
 */
function batchedStdout(): ReturnType<typeof pino.destination> {
  if (!stdoutDestination) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
    process.once('exit', () => destination.flushSync());
    stdoutDestination = destination;
  }
  return stdoutDestination;
}

function isEmpty(context: LogContext): boolean {
  return context.reqId === undefined && context.orgId === undefined && context.jobId === undefined;
}
