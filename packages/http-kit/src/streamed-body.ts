import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { RouteSpec } from '@crawl/contracts';
import { AppError } from '@crawl/errors';
import type { FastifyInstance } from 'fastify';

export type StreamedBodyPolicy = NonNullable<RouteSpec['streamedBody']>;

function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The upload is larger than ${maxBytes} bytes`, 413);
}

/**
 * The body as a stream that fails with a 413 once more than `maxBytes` went through: the bytes
 * are counted as they pass, never gathered.
 */
export function cappedBody(payload: Readable, maxBytes: number): Readable {
  let seen = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) return done(tooLarge(maxBytes));
      return done(null, chunk);
    },
  });
  payload.once('error', (error) => capped.destroy(error));
  return payload.pipe(capped);
}

/**
 * Makes a route scope hand bodies of the policy's media types to the handler unread, as a
 * stream capped at its size (a declared Content-Length past it is refused before any is read).
 * Register the route on `scope` only: other routes keep their parsers.
 */
export function acceptStreamedBodies(scope: FastifyInstance, policy: StreamedBodyPolicy): void {
  // An answer sent before the upload was read to its end (refused, too large) closes the
  // connection: the rest of the upload is never read, so the connection could carry nothing else.
  scope.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete) void reply.header('connection', 'close');
    done(null, payload);
  });
  for (const type of policy.contentTypes) {
    if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
    scope.addContentTypeParser(type, (request, payload, done) => {
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxBytes) return done(tooLarge(policy.maxBytes), undefined);
      return done(null, cappedBody(payload, policy.maxBytes));
    });
  }
}
