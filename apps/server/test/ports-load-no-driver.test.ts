import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DRIVERS = ['mongodb', 'bullmq', 'ioredis'];

function withoutBackends(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, MONGO_URL: _mongo, ...rest } = env;
  return rest;
}

/** The third-party packages a fresh Node process loads to import `packages`. */
function driversLoadedBy(...packages: string[]): string[] {
  const out = execFileSync(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'fixtures/record-imports.ts'), ...packages],
    {
      encoding: 'utf8',
      // As the all-in-one runs by default: no backend URL set.
      env: { ...withoutBackends(process.env), NODE_OPTIONS: '' },
    },
  );
  const urls = JSON.parse(out) as string[];
  return DRIVERS.filter((driver) => urls.some((url) => url.includes(`/node_modules/${driver}/`)));
}

describe('ports and the process runtime load no driver', () => {
  it('imports @crawl/storage, @crawl/queue and @crawl/runtime (with @crawl/http-kit) without loading mongodb, bullmq or ioredis', () => {
    expect(driversLoadedBy('@crawl/storage', '@crawl/queue', '@crawl/runtime')).toEqual([]);
  });

  it('sees a driver when an adapter package is imported (the check itself works)', () => {
    expect(driversLoadedBy('@crawl/storage-mongo')).toEqual(['mongodb']);
    expect(driversLoadedBy('@crawl/queue-bullmq')).toEqual(['bullmq', 'ioredis']);
  });

  it('the embedded adapters load none either', () => {
    expect(driversLoadedBy('@crawl/storage-sqlite', '@crawl/queue-memory')).toEqual([]);
  });

  it('the services load none: the all-in-one without REDIS_URL or MONGO_URL never loads ioredis or mongodb', () => {
    // Redis and MongoDB are reached only through the adapter packages, which the application picks
    // when their URL is set; a service importing a driver itself would show here.
    expect(driversLoadedBy('@crawl/gateway', '@crawl/auth', '@crawl/catalog', '@crawl/billing', '@crawl/crawler-worker')).toEqual([]);
  });
});
