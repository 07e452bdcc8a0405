import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueueDefinition } from '@crawl/queue';
import { InProcessQueueProvider } from '@crawl/queue-memory';
import { EmbeddedDocumentStore } from '@crawl/storage-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProcess } from './build-process.ts';
import { defineModule } from './service-module.ts';

const definition: QueueDefinition<{ n: number }> = { name: 'slow', retry: { attempts: 1, backoffMs: 1, maxBackoffMs: 1 }, parse: (p) => p as { n: number } };

describe('buildProcess close()', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('turns readiness false before modules stop, lets in-flight work finish, then closes the queues', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crawl-shutdown-unit-'));
    dirs.push(dataDir);
    const seen: { readyDuringStop?: boolean; readyStatusDuringStop?: number; finished: number[] } = { finished: [] };
    const queues = new InProcessQueueProvider();
    let started!: () => void;
    const jobStarted = new Promise<void>((r) => (started = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const crawl = await buildProcess({
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789', SHUTDOWN_GRACE_MS: '5000' },
      backends: () => ({ queues, openStore: () => EmbeddedDocumentStore.inMemory(), close: async () => undefined }),
      modules: [
        defineModule({
          name: 'billing',
          init(context) {
            const queue = context.queues.queue(definition);
            return {
              async start() {
                await queue.process(
                  async (job) => {
                    started();
                    await gate;
                    seen.finished.push(job.payload.n);
                  },
                  { concurrency: 1 },
                );
                await queue.add({ n: 1 });
              },
              async stop() {
                seen.readyDuringStop = crawl.isReady();
                seen.readyStatusDuringStop = (await crawl.app.inject({ method: 'GET', url: '/ready' })).statusCode;
                // The in-flight job finishes within the grace period; close waits for it.
                setImmediate(release);
                await queue.close(context.runtime.SHUTDOWN_GRACE_MS);
              },
            };
          },
        }),
      ],
    });
    await crawl.start();
    expect((await crawl.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    await jobStarted;
    await crawl.close();
    expect(seen.readyDuringStop).toBe(false);
    expect(seen.readyStatusDuringStop).toBe(503);
    expect(seen.finished).toEqual([1]);
  });

  it('cuts a connection still answering when the grace period ends, instead of waiting for it forever', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crawl-shutdown-unit-'));
    dirs.push(dataDir);
    const crawl = await buildProcess({
      env: {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
        SHUTDOWN_GRACE_MS: '1500',
        PORT: '0',
        HOST: '127.0.0.1',
      },
      backends: () => ({ queues: new InProcessQueueProvider(), openStore: () => EmbeddedDocumentStore.inMemory(), close: async () => undefined }),
      modules: [
        defineModule({
          name: 'catalog',
          init: () => ({
            async routes(app) {
              // A stream that never ends on its own, as a client that stopped reading leaves it.
              app.get('/endless', { config: { access: 'public' } }, (_request, reply) => {
                reply.hijack();
                reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
                reply.raw.write(': open\n\n');
              });
            },
          }),
        }),
      ],
    });
    await crawl.start();
    await crawl.listen();
    const { port } = crawl.app.server.address() as AddressInfo;
    const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
      get(`http://127.0.0.1:${port}/endless`, resolve).on('error', reject),
    );
    expect(response.statusCode).toBe(200);
    const ended = new Promise<void>((resolve) => response.on('close', () => resolve()));
    response.resume();
    const started = Date.now();
    await crawl.close();
    await ended;
    // Closed at the deadline (1.5 s grace), not hung until the test's own timeout.
    expect(Date.now() - started).toBeLessThan(4_000);
  }, 10_000);
});
