import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestLog } from './request-log.ts';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  url?: string;
  status?: number;
  ms?: number;
}

const INFO = 30;
const DEBUG = 20;

async function appLogging(level: string, edge: boolean, redact: string[] = []): Promise<{ app: FastifyInstance; lines: Line[] }> {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      callback();
    },
  });
  const app = Fastify({ logger: { level, stream: sink, redact }, logController: new RequestLog(edge), genReqId: () => 'req-1' }) as unknown as FastifyInstance;
  app.get('/jobs/:id', { config: { access: 'user' } }, async () => ({ ok: true }));
  app.get('/internal/claim', { config: { access: 'internal' } }, async () => ({ ok: true }));
  app.get('/undeclared', async () => ({ ok: true }));
  app.get('/ready', { config: { access: 'public' } }, async () => ({ ready: true }));
  app.get('/failing', { config: { access: 'user' } }, async () => {
    throw Object.assign(new Error('broken'), { password: 'hunter2' });
  });
  await app.ready();
  return { app, lines };
}

describe('request log', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('logs one line per public request at info on the edge, with the request id, status and time', async () => {
    const setup = await appLogging('info', true);
    app = setup.app;
    await app.inject({ method: 'GET', url: '/jobs/j1?x=1' });
    await app.inject({ method: 'GET', url: '/no-such-route' });
    expect(setup.lines).toHaveLength(2);
    expect(setup.lines[0]).toMatchObject({ level: INFO, msg: 'request completed', reqId: 'req-1', method: 'GET', url: '/jobs/j1?x=1', status: 200 });
    expect(setup.lines[0]?.ms).toBeGreaterThanOrEqual(0);
    expect(setup.lines[1]).toMatchObject({ level: INFO, url: '/no-such-route', status: 404 });
  });

  it('keeps internal routes, undeclared routes and probes out of the info log', async () => {
    const setup = await appLogging('info', true);
    app = setup.app;
    for (const url of ['/internal/claim', '/undeclared', '/ready']) await app.inject({ method: 'GET', url });
    expect(setup.lines).toEqual([]);
  });

  it('logs them at debug when debug is on', async () => {
    const setup = await appLogging('debug', true);
    app = setup.app;
    await app.inject({ method: 'GET', url: '/internal/claim' });
    expect(setup.lines).toEqual([expect.objectContaining({ level: DEBUG, url: '/internal/claim', status: 200 })]);
  });

  it('off the edge (a service behind the gateway), public requests are at debug: the gateway logged them', async () => {
    const quiet = await appLogging('info', false);
    app = quiet.app;
    await app.inject({ method: 'GET', url: '/jobs/j1' });
    expect(quiet.lines).toEqual([]);
    await app.close();
    const verbose = await appLogging('debug', false);
    app = verbose.app;
    await app.inject({ method: 'GET', url: '/jobs/j1' });
    expect(verbose.lines).toEqual([expect.objectContaining({ level: DEBUG, url: '/jobs/j1', status: 200 })]);
  });

  it('writes the completed line past redaction, and still redacts what an error line carries', async () => {
    const setup = await appLogging('info', true, ['password', '*.password']);
    app = setup.app;
    await app.inject({ method: 'GET', url: '/jobs/j1' });
    await app.inject({ method: 'GET', url: '/failing' });
    expect(setup.lines[0]).toMatchObject({ level: INFO, msg: 'request completed', reqId: 'req-1', url: '/jobs/j1', status: 200 });
    expect(setup.lines.find((line) => line.url === '/failing')).toMatchObject({ msg: 'request completed', status: 500 });
    // The error's own line goes through the redacting logger.
    const errorLine = setup.lines.find((line) => line.level === 50) as (Line & { err?: { message?: string; password?: string } }) | undefined;
    expect(errorLine?.err).toMatchObject({ message: 'broken', password: '[Redacted]' });
  });
});
