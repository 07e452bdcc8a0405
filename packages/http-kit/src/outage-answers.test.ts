import { errorHandlerPlugin } from '@crawl/errors';
import { StorageUnavailableError } from '@crawl/storage';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

describe('answers to an outage', () => {
  it('a database outage is a 503 in the envelope that says when to come back, like every other 503', async () => {
    const app = Fastify({ logger: false });
    await app.register(errorHandlerPlugin);
    app.get('/db', async () => {
      throw new StorageUnavailableError('mongo is down: connection refused 10.0.0.7:27017');
    });
    app.get('/bug', async () => {
      throw new Error('a bug');
    });
    const outage = await app.inject({ method: 'GET', url: '/db' });
    expect(outage.statusCode).toBe(503);
    expect(outage.headers['retry-after']).toBe('5');
    // The cause (hosts, drivers) stays in the log, not in the answer.
    expect(outage.json()).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable', details: [] } });
    const bug = await app.inject({ method: 'GET', url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.headers['retry-after']).toBeUndefined();
    await app.close();
  });
});
