import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceName } from '@crawl/contracts';
import { InProcessQueueProvider } from '@crawl/queue-memory';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessBackends } from './backends.ts';
import { buildProcess } from './build-process.ts';
import { defineModule } from './service-module.ts';

describe('buildProcess and the backends it is given', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('opens a database only for modules that own data, reports the backends’ health, and closes them last', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crawl-backends-unit-'));
    dirs.push(dataDir);
    const opened: ServiceName[] = [];
    const seen: Record<string, boolean> = {};
    let closed = false;
    const backends: ProcessBackends = {
      openStore(service) {
        opened.push(service);
        return EmbeddedDocumentStore.inMemory();
      },
      queues: new InProcessQueueProvider(),
      health: {
        mongo: async () => {
          throw new Error('database down');
        },
      },
      async close() {
        closed = true;
      },
    };
    const crawl = await buildProcess({
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789' },
      backends: () => backends,
      modules: [
        defineModule({
          name: 'billing',
          ownsData: true,
          init(context) {
            seen.billing = context.store !== undefined;
            return {};
          },
        }),
        defineModule({
          name: 'gateway',
          init(context) {
            seen.gateway = 'store' in context;
            return {};
          },
        }),
      ],
    });
    await crawl.start();
    expect(opened).toEqual(['billing']);
    expect(seen).toEqual({ billing: true, gateway: false });
    const health = await crawl.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json().error).toEqual({ mongo: { status: 'down', message: 'database down' } });
    expect(closed).toBe(false);
    await crawl.close();
    expect(closed).toBe(true);
  });
});
