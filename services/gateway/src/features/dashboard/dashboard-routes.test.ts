import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorHandlerPlugin } from '@crawl/errors';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoutes } from './dashboard-routes.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/app/assets/index-abc123.js"></script></head><body></body></html>';

async function appServing(dist: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(errorHandlerPlugin);
  await dashboardRoutes(app, { dist });
  await app.ready();
  return app;
}

describe('dashboard routes', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1);');
    app = await appServing(dist);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers index.html for /app/ and every page below it, revalidated on each load, under a same-origin CSP', async () => {
    for (const url of ['/app/', '/app/projects', '/app/jobs/job_1?tab=results']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
    }
  });

  it('redirects /app to /app/ keeping the query (a referral link)', async () => {
    const res = await app.inject({ url: '/app?ref=K7M2QX9P' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/app/?ref=K7M2QX9P');
  });

  it('serves hashed assets as immutable for a year, and 404s an unknown one or a path outside dist', async () => {
    const asset = await app.inject({ url: '/app/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    for (const url of ['/app/assets/nope.js', '/app/assets/..%2F..%2Fetc%2Fpasswd', '/app/assets/%2e%2e/%2e%2e/package.json']) {
      const res = await app.inject({ url });
      expect([404, 400], url).toContain(res.statusCode);
      expect(res.body, url).not.toContain('root:');
    }
  });

  it('answers 503 in the error envelope, saying how to build it, when the dashboard was never built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dashboard-empty-'));
    const bare = await appServing(empty);
    try {
      const res = await bare.inject({ url: '/app/' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toContain('pnpm install');
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
