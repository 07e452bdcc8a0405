/**
 * Live job events (GET /jobs/:id/events) over real HTTP, read with fetch as a client would: in the
 * all-in-one, and through a gateway forwarding to the services in another process. A job crawls
 * the marketplace simulator (slow pages keep it running long enough to see heartbeats).
 */
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEvents, type SseConnection } from './sse-reader.ts';
import { call } from './http-call.ts';
import { crawlEnv } from './crawling-service.ts';
import { spawnService, type SpawnedService } from './spawn-service.ts';

const SECRET = 'job-events-e2e-secret-that-is-long-enough-0123456789';

const crawlEnvOf = (sim: Simulator): Record<string, string> =>
  crawlEnv(sim, SECRET, { MAX_FETCH_ATTEMPTS: '1', JOB_EVENTS_HEARTBEAT_MS: '150', JOB_EVENTS_MAX_STREAMS_PER_ORG: '3' });

interface Setup {
  /** Where clients connect. */
  url: string;
  /** Stops the process clients connect to; resolves with its exit code. */
  stopFront(): Promise<number | null>;
}

async function signUp(base: string, name: string) {
  const registered = await call(base, 'POST', '/auth/register', { body: { email: `${name}-${Date.now()}@example.com`, password: 'a-long-enough-password' } });
  expect(registered.status).toBe(201);
  const token = registered.body.accessToken as string;
  const project = await call(base, 'POST', '/projects', { token, body: { name } });
  expect(project.status).toBe(201);
  return { token, projectId: project.body.data.id as string };
}

const idsOf = (stream: SseConnection) => stream.events().map((event) => Number(event.id));

function scenario(name: string, start: (sim: Simulator) => Promise<Setup>) {
  describe(`live job events: ${name}`, () => {
    let sim: Simulator;
    let setup: Setup;

    beforeAll(async () => {
      sim = await createSimulator({ pageSize: 'small', seed: 7, faults: { rules: [{ keyword: 'slowpoke', fault: 'slow:600' }] } });
      setup = await start(sim);
    }, 90_000);
    afterAll(async () => {
      await sim?.close();
    });

    it('streams a snapshot, each target with progress, the status change and the end, then closes; resumes after Last-Event-ID', async () => {
      const { url } = setup;
      const alice = await signUp(url, 'alice');
      const created = await call(url, 'POST', `/projects/${alice.projectId}/jobs`, {
        token: alice.token,
        body: { type: 'search', targets: ['slowpoke lamp', 'slowpoke desk', 'blocked chair'] },
      });
      expect(created.status).toBe(201);
      const jobId = created.body.data.id as string;
      const eventsUrl = `${url}/jobs/${jobId}/events`;
      const auth = { authorization: `Bearer ${alice.token}` };

      const stream = await openEvents(eventsUrl, auth);
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.headers.get('cache-control')).toBe('no-store');
      await stream.closed;

      expect(stream.items[0]).toEqual({ kind: 'retry', ms: 3000 });
      // Heartbeats (every 150 ms here) while the slow pages load.
      expect(stream.items.some((item) => item.kind === 'comment' && item.text === 'keep-alive')).toBe(true);
      const events = stream.events();
      const names = events.map((event) => event.event);
      expect(names[0]).toBe('job');
      expect(names.slice(-3)).toEqual(['target', 'job', 'end']);
      expect(names.filter((n) => n === 'target')).toHaveLength(3);
      const ids = idsOf(stream);
      expect(ids.every((id, i) => Number.isInteger(id) && (i === 0 || id > (ids[i - 1] as number)))).toBe(true);

      const snapshot = events[0]?.data;
      expect(snapshot).toMatchObject({ id: jobId, organizationId: created.body.data.organizationId, targets: expect.any(Array) });
      expect(['queued', 'running']).toContain(snapshot.status);
      expect(snapshot.queue).toMatchObject({ position: 1, targetsAhead: expect.any(Number) });

      const targets = events.filter((event) => event.event === 'target').map((event) => event.data);
      expect(targets.map((t) => t.index).sort()).toEqual([0, 1, 2]);
      expect(targets.map((t) => t.progress.done + t.progress.failed)).toEqual([1, 2, 3]);
      expect(targets.at(-1)?.progress).toEqual({ total: 3, done: 2, failed: 1, pending: 0 });
      const blocked = targets.find((t) => t.index === 2);
      expect(blocked).toMatchObject({ jobId, target: { value: 'blocked chair', status: 'failed', reason: 'blocked' } });
      expect(targets.find((t) => t.index === 0)?.target).toMatchObject({ value: 'slowpoke lamp', status: 'success' });

      const end = events.at(-1)?.data;
      expect(end).toMatchObject({ id: jobId, status: 'completed', resultSetId: expect.any(String) });
      expect(end.queue).toBeUndefined();
      expect(events.at(-2)?.data.status).toBe('completed');

      // Resume after the first target event: the rest, with the same ids, and nothing before it.
      const firstTarget = events.find((event) => event.event === 'target');
      const resumed = await openEvents(eventsUrl, { ...auth, 'last-event-id': String(firstTarget?.id) });
      await resumed.closed;
      expect(resumed.events().map((event) => event.event)).toEqual(['target', 'target', 'job', 'end']);
      expect(idsOf(resumed)).toEqual(ids.slice(ids.indexOf(Number(firstTarget?.id)) + 1));
      expect(resumed.events()[1]?.data.progress).toEqual({ total: 3, done: 2, failed: 1, pending: 0 });

      // After `end` nothing more comes: 204 tells EventSource to stop reconnecting.
      const after = await fetch(eventsUrl, { headers: { ...auth, 'last-event-id': String(ids.at(-1)) } });
      expect(after.status).toBe(204);

      // A finished job, connected afresh: its snapshot, then end.
      const again = await openEvents(eventsUrl, auth);
      await again.closed;
      expect(again.events().map((event) => [event.event, event.data.status])).toEqual([
        ['job', 'completed'],
        ['end', 'completed'],
      ]);
      // An id the server cannot place: a fresh snapshot.
      const unknown = await openEvents(eventsUrl, { ...auth, 'last-event-id': '9999' });
      await unknown.closed;
      expect(unknown.events().map((event) => event.event)).toEqual(['job', 'end']);
    }, 60_000);

    it("answers 404 for another organization's job and 429 beyond the open streams allowed, both in the envelope", async () => {
      const { url } = setup;
      const alice = await signUp(url, 'alice-limits');
      const mallory = await signUp(url, 'mallory');
      const created = await call(url, 'POST', `/projects/${alice.projectId}/jobs`, {
        token: alice.token,
        body: { type: 'search', targets: ['slowpoke a', 'slowpoke b', 'slowpoke c', 'slowpoke d', 'slowpoke e', 'slowpoke f'] },
      });
      const eventsUrl = `${url}/jobs/${created.body.data.id}/events`;

      const foreign = await fetch(eventsUrl, { headers: { authorization: `Bearer ${mallory.token}` } });
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Job not found', details: [] } });
      const anonymous = await fetch(eventsUrl);
      expect(anonymous.status).toBe(401);
      await anonymous.text();

      const auth = { authorization: `Bearer ${alice.token}` };
      const open = [await openEvents(eventsUrl, auth), await openEvents(eventsUrl, auth), await openEvents(eventsUrl, auth)];
      expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
      const refused = await fetch(eventsUrl, { headers: auth });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMIT_EXCEEDED');
      // Another organization has its own allowance.
      const mine = await signUp(url, 'other-org');
      const own = await call(url, 'POST', `/projects/${mine.projectId}/jobs`, { token: mine.token, body: { type: 'search', targets: ['desk lamp'] } });
      const theirs = await openEvents(`${url}/jobs/${own.body.data.id}/events`, { authorization: `Bearer ${mine.token}` });
      expect(theirs.status).toBe(200);
      await theirs.closed;
      expect(theirs.events().at(-1)?.event).toBe('end');

      // A client that leaves gives its slot back.
      open[0]?.abort();
      await vi.waitFor(
        async () => {
          const retry = await openEvents(eventsUrl, auth);
          expect(retry.status).toBe(200);
          open[0] = retry;
        },
        { timeout: 5_000, interval: 100 },
      );
      await call(url, 'POST', `/jobs/${created.body.data.id}/cancel`, { token: alice.token });
      // Cancelling ends every stream of the job with the cancelled job.
      for (const stream of open) {
        await stream.closed;
        expect(stream.events().at(-1)).toMatchObject({ event: 'end', data: { status: 'cancelled' } });
      }
    }, 60_000);

    it('ends open streams when the server stops, and the process exits cleanly', async () => {
      const { url } = setup;
      const alice = await signUp(url, 'alice-stop');
      const created = await call(url, 'POST', `/projects/${alice.projectId}/jobs`, {
        token: alice.token,
        body: { type: 'search', targets: ['slowpoke x', 'slowpoke y', 'slowpoke w', 'slowpoke v'] },
      });
      const stream = await openEvents(`${url}/jobs/${created.body.data.id}/events`, { authorization: `Bearer ${alice.token}` });
      await stream.until((items) => items.some((item) => item.kind === 'event'));
      const startedAt = Date.now();
      expect(await setup.stopFront()).toBe(0);
      await stream.closed;
      // Not after the 2 s grace or a timeout: the stream was ended as shutdown began.
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      expect(stream.events().at(-1)?.event).not.toBe('end');
    }, 30_000);
  });
}

const running: SpawnedService[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

scenario('all-in-one', async (sim) => {
  const all = await spawnService({ env: crawlEnvOf(sim), waitFor: '/ready' });
  running.push(all);
  return {
    url: all.url,
    stopFront: async () => {
      const code = await all.stop();
      if (code !== 0) console.error(all.output().slice(-3_000));
      return code;
    },
  };
});

scenario('gateway in front of the services in another process', async (sim) => {
  const backend = await spawnService({ args: ['--target=auth,billing,catalog,crawler-worker'], env: crawlEnvOf(sim), waitFor: '/ready' });
  running.push(backend);
  const urls = { AUTH_URL: backend.url, BILLING_URL: backend.url, CATALOG_URL: backend.url };
  const gateway = await spawnService({ args: ['--target=gateway'], env: { ...crawlEnvOf(sim), ...urls }, waitFor: '/ready' });
  running.push(gateway);
  return { url: gateway.url, stopFront: () => gateway.stop() };
});
