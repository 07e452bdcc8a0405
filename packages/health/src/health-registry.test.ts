import { describe, expect, it } from 'vitest';
import { HealthRegistry } from './index.ts';

describe('HealthRegistry', () => {
  it('reports ok when every indicator is up', async () => {
    const health = new HealthRegistry();
    health.register('api', async () => true);
    expect(await health.report()).toEqual({ status: 'ok', info: { api: { status: 'up' } }, error: {}, details: { api: { status: 'up' } } });
  });

  it('reports error with the failing indicator and its message, keeping healthy ones in info', async () => {
    const health = new HealthRegistry();
    health.register('api', async () => true);
    health.register('mongo', async () => {
      throw new Error('connection refused');
    });
    health.register('flag', async () => false);
    const report = await health.report();
    expect(report.status).toBe('error');
    expect(report.info).toEqual({ api: { status: 'up' } });
    expect(report.error).toEqual({ mongo: { status: 'down', message: 'connection refused' }, flag: { status: 'down', message: 'check failed' } });
    expect(Object.keys(report.details)).toEqual(['api', 'mongo', 'flag']);
  });
});
