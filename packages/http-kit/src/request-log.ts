import type { LogContext, Logger } from '@crawl/logging';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/** Probes: frequent, and only of interest when debugging. */
const QUIET_PATHS = new Set(['/health', '/live', '/ready']);
/** Served by plugins that declare no access level, public all the same (access-control.ts). */
const PUBLIC_PREFIXES = ['/docs', '/openapi.json'];

/**
 * One line per request, written when the answer has gone (method, path, status, time, and the
 * request id from the request's logger), in place of Fastify's two (received, completed).
 * A request is logged at `info` only where it met the client: on a process where the gateway
 * runs, and not on an internal route or a probe. Everything else at `debug`: internal calls (a
 * worker's claims and reports, billing's settings polls) and, on a service in its own process,
 * the requests the gateway forwarded, which the gateway logged already under the same id.
 * Errors keep their own lines (the error handler's, Fastify's for a broken stream).
 */
export class RequestLog extends LogController {
  readonly #edge: boolean;

  /** @param edge The gateway runs in this process: it answers the clients. */
  constructor(edge: boolean) {
    super();
    this.#edge = edge;
  }

  override incomingRequest(): void {}

  /** The completed line says 404 already. */
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ ...lineOf(request, reply), err: error }, 'request errored');
      return;
    }
    const level = this.#edge && !isQuiet(request) ? 'info' : 'debug';
    const log = reply.log;
    // A line below the level (a forwarded request on a service) is not built at all.
    if ((log as Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.(level) === false) return;
    unredacted(log)[level](lineOf(request, reply), 'request completed');
  }
}

const unredactedLoggers = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

/**
 * The same logger without redaction, for the completed line: its fields are ids, method, URL,
 * status and time, none of which a redaction path names, and redaction's wildcard paths
 * (`*.password`) otherwise run on each of them. Error lines keep it: an error may carry anything.
 */
function unredacted(log: FastifyBaseLogger): FastifyBaseLogger {
  let plain = unredactedLoggers.get(log);
  if (!plain) {
    plain = log.child({}, { redact: { paths: [] } });
    unredactedLoggers.set(log, plain);
  }
  return plain;
}

function isQuiet(request: FastifyRequest): boolean {
  // Fastify builds the route options anew at each read: once here.
  const { url: route, config } = request.routeOptions;
  // An unknown path has no route: a client's mistake, logged like any public request.
  if (route === undefined) return false;
  if (QUIET_PATHS.has(route)) return true;
  const access = config?.access;
  // A route that declares no access is internal (access-control.ts).
  return access === 'internal' || (access === undefined && !PUBLIC_PREFIXES.some((prefix) => route.startsWith(prefix)));
}

/** The fields of a request's line: the ids of its log context, and the request and its answer. */
interface RequestLine extends LogContext {
  reqId: string;
  method: string;
  url: string;
  status: number;
  /** Time to answer, in milliseconds to one decimal. */
  ms: number;
}

/** The ids are named here too: the answer may finish outside the request's log context. */
function lineOf(request: FastifyRequest, reply: FastifyReply): RequestLine {
  const line: RequestLine = {
    reqId: request.id,
    method: request.method,
    url: request.url,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
  };
  const orgId = request.logContext?.orgId ?? request.identity?.organizationId;
  if (orgId !== undefined) line.orgId = orgId;
  const jobId = request.logContext?.jobId;
  if (jobId !== undefined) line.jobId = jobId;
  return line;
}
