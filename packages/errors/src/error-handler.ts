import { codeForStatus, type ErrorEnvelope } from '@crawl/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAppError } from './app-error.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './catalogue.ts';
import { describeSchemaErrors, type SchemaError } from './validation-messages.ts';

export function envelope(code: string, message: string, details: unknown[] = []): ErrorEnvelope {
  return { success: false, error: { code, message, details } };
}

interface Mapped {
  status: number;
  body: ErrorEnvelope;
  headers?: Record<string, string>;
}

/** Fastify's own error codes that mean "the client sent something wrong". */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported Content-Type; send application/json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'VALIDATION_ERROR', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'VALIDATION_ERROR', message: 'Request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
  FST_ERR_BAD_URL: { status: 400, code: 'VALIDATION_ERROR', message: 'Malformed URL' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'VALIDATION_ERROR', message: 'A path parameter is too long' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'VALIDATION_ERROR', message: 'Malformed request' },
};

export function mapError(error: FastifyError | Error): Mapped {
  if (isAppError(error)) {
    return { status: error.statusCode, body: envelope(error.code, error.message, error.details), headers: error.headers };
  }
  const fe = error as FastifyError & { validation?: SchemaError[]; validationContext?: string };
  if (fe.validation) {
    const details = describeSchemaErrors(fe.validation, fe.validationContext);
    return { status: 400, body: envelope('VALIDATION_ERROR', details[0] ?? 'Invalid request', details) };
  }
  const known = fe.code ? FRAMEWORK_ERRORS[fe.code] : undefined;
  if (known) return { status: known.status, body: envelope(known.code, known.message) };
  // JSON syntax errors surface as SyntaxError with a 400 status from the body parser.
  if (error instanceof SyntaxError || (fe.statusCode === 400 && /JSON/i.test(fe.message))) {
    return { status: 400, body: envelope('VALIDATION_ERROR', 'Request body is not valid JSON') };
  }
  const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 600 ? fe.statusCode : 500;
  if (status === 503) {
    // A database or queue outage (StorageUnavailableError and the like): say when to come back, as errors.unavailable does.
    return {
      status,
      body: envelope(codeForStatus(status), 'Service temporarily unavailable'),
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    };
  }
  if (status >= 500) return { status, body: envelope(codeForStatus(status), 'Internal server error') };
  return { status, body: envelope(codeForStatus(status), fe.message || 'Bad request') };
}

/** One error handler for the whole process: every failure leaves as the spec's envelope, never a stack. */
export const errorHandlerPlugin = fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const mapped = mapError(error);
      if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ code: mapped.body.error.code, status: mapped.status }, mapped.body.error.message);
      if (mapped.headers) void reply.headers(mapped.headers);
      return reply.code(mapped.status).type('application/json; charset=utf-8').send(mapped.body);
    });
    // The path is not echoed: an answer never repeats what the client sent.
    app.setNotFoundHandler((request, reply) => reply.code(404).send(envelope('NOT_FOUND', `No ${request.method} route at this path`)));
  },
  { name: 'crawl-error-handler' },
);
