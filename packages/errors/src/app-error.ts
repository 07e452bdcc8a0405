import type { ErrorCode } from '@crawl/contracts';

/** An error meant for the client: it carries the wire code, the status and safe details. */
export class AppError extends Error {
  readonly code: ErrorCode | (string & {});
  readonly statusCode: number;
  readonly details: unknown[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode | (string & {}), message: string, statusCode: number, details: unknown[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusCode;
    this.details = details;
    this.headers = headers;
  }
}

export function createError(code: ErrorCode, message: string, statusCode: number, details: unknown[] = []): AppError {
  return new AppError(code, message, statusCode, details);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
