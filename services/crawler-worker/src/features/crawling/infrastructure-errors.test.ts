import { errors } from '@crawl/errors';
import { describe, expect, it } from 'vitest';
import { isInfrastructureError } from './infrastructure-errors.ts';

describe('isInfrastructureError', () => {
  it('recognizes unavailable services, databases and sockets, also as a cause', () => {
    expect(isInfrastructureError(errors.unavailable())).toBe(true);
    expect(isInfrastructureError(errors.badGateway())).toBe(true);
    expect(isInfrastructureError(Object.assign(new Error('gateway timeout'), { statusCode: 504 }))).toBe(true);
    // @crawl/storage's StorageUnavailableError, as the embedded all-in-one may see it, by its name.
    expect(isInfrastructureError(Object.assign(new Error('Database unavailable'), { name: 'StorageUnavailableError' }))).toBe(true);
    expect(isInfrastructureError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' }))).toBe(true);
    const wrapped = new Error('report failed', { cause: Object.assign(new Error('socket'), { code: 'UND_ERR_SOCKET' }) });
    expect(isInfrastructureError(wrapped)).toBe(true);
  });

  it('leaves errors about the request or the code alone', () => {
    expect(isInfrastructureError(errors.notFound('Target'))).toBe(false);
    expect(isInfrastructureError(errors.conflict('x'))).toBe(false);
    expect(isInfrastructureError(new TypeError('undefined is not a function'))).toBe(false);
    expect(isInfrastructureError('ECONNREFUSED')).toBe(false);
    expect(isInfrastructureError(undefined)).toBe(false);
  });
});
