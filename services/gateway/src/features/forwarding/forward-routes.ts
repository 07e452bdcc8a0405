import { Readable } from 'node:stream';
import { PUBLIC_ROUTES, type RouteSpec, type ServiceName } from '@crawl/contracts';
import { AppError, errors, isAppError } from '@crawl/errors';
import { acceptStreamedBodies, routeFromSpec } from '@crawl/http-kit';
import { serviceUrlSetting } from '@crawl/runtime';
import {
  clientLeft,
  ForwardError,
  HttpForwarder,
  IDENTITY_HEADER,
  RequestAbortedError,
  SERVICE_TOKEN_HEADER,
  upstreamRequestHeaders,
  type ForwardedResponse,
  type HttpForwarderOptions,
  type InternalTokens,
} from '@crawl/service-client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface ForwardingOptions {
  tokens: InternalTokens;
  isLocal: (service: ServiceName) => boolean;
  baseUrlOf: (service: ServiceName) => string | undefined;
  /** Upstream timeouts and pool size; the defaults suit production. */
  upstream?: HttpForwarderOptions;
  /** The routes to forward; default: every public route owned by a service in another process. */
  routes?: readonly RouteSpec[];
}

/** Public routes whose owner runs in another process. */
export function remoteRoutes(isLocal: (service: ServiceName) => boolean): RouteSpec[] {
  return PUBLIC_ROUTES.filter((route) => route.owner !== 'gateway' && !isLocal(route.owner));
}

/**
 * For each public route owned by a service in another process: the same path, schemas and
 * policy here, then a proxy to the owner with the caller's identity signed into a header. The
 * client's own Authorization never travels further than the gateway. When the client goes away
 * before its answer, the upstream request is aborted, so the owner sees its client leave too.
 */
export async function forwardRoutes(app: FastifyInstance, options: ForwardingOptions): Promise<void> {
  const routes = options.routes ?? remoteRoutes(options.isLocal);
  if (routes.length === 0) return;
  const forwarder = new HttpForwarder({ connections: 128, headersTimeoutMs: 30_000, bodyTimeoutMs: 300_000, ...options.upstream });
  const eventStreams = new Set<() => void>();
  // Event streams never end by themselves: end them before the server waits for open requests
  // (clients reconnect with Last-Event-ID). Downloads in flight are left to finish.
  app.addHook('preClose', (done) => {
    for (const end of [...eventStreams]) end();
    done();
  });
  app.addHook('onClose', async () => forwarder.close());
  for (const spec of routes) {
    const base = options.baseUrlOf(spec.owner);
    if (!base) throw new Error(`The gateway forwards ${spec.method} ${spec.url} to ${spec.owner}: set ${serviceUrlSetting(spec.owner) ?? 'its URL'}`);
    const url = new URL(base);
    const upstream = { origin: url.origin, prefix: url.pathname.replace(/\/$/, ''), owner: spec.owner, forwarder, tokens: options.tokens, eventStreams };
    const streamed = spec.streamedBody;
    if (streamed) {
      // Uploads go on as they arrive, in a scope of their own so other routes keep their parsers.
      void app.register(async (scope) => {
        acceptStreamedBodies(scope, streamed);
        routeFromSpec(scope, spec, (request, reply) => forward(request, reply, upstream));
      });
    } else {
      routeFromSpec(app, spec, (request, reply) => forward(request, reply, upstream));
    }
  }
}

interface Upstream {
  origin: string;
  /** A path the owner's base URL has, put before each forwarded path. */
  prefix: string;
  owner: ServiceName;
  forwarder: HttpForwarder;
  tokens: InternalTokens;
  /** Ends each event stream being forwarded (on shutdown). */
  eventStreams: Set<() => void>;
}

/** Credentials stop here: only the gateway's own signature of the identity goes on. */
const CREDENTIALS = new Set(['authorization', IDENTITY_HEADER, SERVICE_TOKEN_HEADER]);

async function forward(request: FastifyRequest, reply: FastifyReply, upstream: Upstream): Promise<FastifyReply> {
  const headers = upstreamRequestHeaders(request.headers, CREDENTIALS);
  headers['x-request-id'] = request.id;
  if (request.identity) headers[IDENTITY_HEADER] = upstream.tokens.signIdentity(request.identity);
  let body: string | Readable | undefined;
  if (request.body instanceof Readable) {
    body = request.body;
  } else if (typeof request.body === 'string') {
    body = request.body;
  } else if (request.body !== undefined && request.body !== null) {
    body = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  const forwarded = { method: request.method, path: upstream.prefix + request.url, headers, ...(body === undefined ? {} : { body }) };
  let response: ForwardedResponse;
  try {
    response = await upstream.forwarder.forward(upstream.origin, forwarded, reply.raw);
  } catch (error) {
    // An upload cut short for its size says so, not that the owner failed.
    if (error instanceof ForwardError && isAppError(error.cause)) throw error.cause;
    throw answerFor(error, upstream.owner);
  }
  if (clientLeft(reply.raw)) {
    // The client left while the answer was on its way (its stream, if any, is ended already).
    throw answerFor(new ForwardError('aborted', new RequestAbortedError()), upstream.owner);
  }
  void reply.code(response.status).headers(response.headers);
  // A small answer of known size (most of the API) comes whole and goes on in one write.
  if (response.payload) return reply.send(response.payload);
  if (isEventStream(response.headers['content-type'])) {
    // Each event goes on as it arrives (no buffering on the way); heartbeats from the owner keep
    // the body timeout, which counts silence only, from ending a long stream.
    const end = () => {
      response.body.unpipe();
      reply.raw.end();
      response.body.destroy();
    };
    upstream.eventStreams.add(end);
    reply.raw.once('close', () => upstream.eventStreams.delete(end));
  }
  return reply.send(response.body);
}

function isEventStream(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && contentType.toLowerCase().startsWith('text/event-stream');
}

/**
 * A failed forward in the error envelope: the owner down or dropping the connection → 503 with
 * Retry-After (a restarting service is back in seconds), too slow → 504, an answer that is not
 * HTTP → 502; never a 500, which would say the gateway itself is broken.
 */
function answerFor(error: unknown, owner: ServiceName): Error {
  const failure = error instanceof ForwardError ? error.failure : 'failed';
  const answer =
    failure === 'aborted'
      ? new AppError('REQUEST_ABORTED', 'The client closed the request', 499)
      : failure === 'timeout'
        ? errors.gatewayTimeout(`The ${owner} service did not answer in time`)
        : failure === 'unreachable'
          ? errors.unavailable(`The ${owner} service is unreachable`)
          : errors.badGateway(`The ${owner} service answered unexpectedly`);
  return Object.assign(answer, { cause: error });
}
