import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { codeForStatus } from '@crawl/contracts';
import { envelope, mapError } from '@crawl/errors';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { SECURITY_HEADERS } from './security-headers.ts';

/**
 * Answers for failures that happen before a route exists to handle them, so they leave like every
 * other error: the envelope, the security headers, nothing of the client's input echoed back.
 */

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode, a path parameter over the length
 * limit. These answers skip every hook, so the request id a support request quotes is set here.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const mapped = mapError(error);
  void reply.code(mapped.status).headers(SECURITY_HEADERS).header('x-request-id', request.id).type('application/json; charset=utf-8').send(mapped.body);
}

interface ParserError extends Error {
  code?: string;
  /** The bytes Node's parser was reading when it gave up (a Buffer; Fastify's types say otherwise). */
  rawPacket?: unknown;
}

/** What Node's HTTP parser refuses, by its error code. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
  // The request line counts towards the same limit: a URL over it is refused here too.
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large' },
};
const MALFORMED = { status: 400, message: 'Malformed HTTP request' };

/**
 * Fastify's `clientErrorHandler`: Node's parser refused the request (headers too large, a request
 * not received in time, bytes that are not HTTP) before Fastify saw it. Only the raw socket is
 * left, so the answer is written by hand and the connection closed.
 */
export function clientErrorHandler(error: ParserError, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node's own rule: an answer already under way on this connection is not interrupted by another.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !answering) socket.write(clientErrorResponse(error));
  socket.destroy();
}

export function clientErrorResponse(error: ParserError): string {
  const known = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
  const status = known.status;
  const body = JSON.stringify(envelope(codeForStatus(status), known.message));
  // The parser stopped inside the request line or headers; a HEAD request still gets no body.
  const isHead = Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  const headers = {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    connection: 'close',
  };
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join('\r\n');
  return `${head}\r\n\r\n${isHead ? '' : body}`;
}
