// Worker thread: N clients paging through a job's results for a bounded time, so the latency
// probe in the main thread is not slowed by this load's client-side work.
//
// With `rate` > 0 each client asks for a page every 1/rate s, the clients staggered evenly over
// that interval (node:http, one keep-alive connection each): a steady `rate × clients` pages/s. A
// page that takes longer than the interval delays the client's next one, never bunching them up.
// Not autocannon's `connectionRate`: that is a budget per second (each connection sends its `rate`
// requests back to back when the second starts, then waits), i.e. closed-loop bursts that
// saturate the server for part of every second. With `rate` 0 the clients run closed loop with
// autocannon: each asks for the next page as soon as it has the last.
//
// Each client walks `pages / clients` consecutive pages, then starts a new walk further on, so
// together they cover the whole job, early and late pages alike. A walk starts with a page number
// and goes on with `pagination.nextCursor` where the service offers cursors (with page numbers
// otherwise), the way a client downloading the results would.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type autocannon from 'autocannon';
import { cursorPath, nextCursorOf, resultsPath } from './api.ts';
import { load, type LoadResult } from './load.ts';

export interface PagerInput {
  url: string;
  token: string;
  jobId: string;
  pageSize: number;
  pages: number;
  clients: number;
  /** Pages per second per client; 0 = closed loop (the next page as soon as the last one arrived). */
  rate: number;
  seconds: number;
  timeoutSeconds: number;
  /** Follow `pagination.nextCursor` (the service returned one in set-up). */
  cursors: boolean;
}

interface WalkContext {
  page?: number;
  cursor?: string | null;
}

const input = workerData as PagerInput;
const walk = Math.max(1, Math.ceil(input.pages / input.clients));
let nextStart = 0;

const requests: autocannon.Request[] = Array.from({ length: walk }, (_, step) => ({
  setupRequest: (request: autocannon.Request, context: object) => {
    const walkState = context as WalkContext;
    if (step === 0) {
      walkState.page = (nextStart % input.pages) + 1;
      nextStart += walk;
      request.path = resultsPath(input.jobId, walkState.page, input.pageSize);
      return request;
    }
    walkState.page = ((walkState.page ?? 0) % input.pages) + 1;
    request.path =
      input.cursors && walkState.cursor ? cursorPath(input.jobId, walkState.cursor, input.pageSize) : resultsPath(input.jobId, walkState.page, input.pageSize);
    return request;
  },
  onResponse: (_status: number, body: string, context: object) => {
    if (input.cursors) (context as WalkContext).cursor = nextCursorOf(body);
  },
}));

/** One paced client's walk, the same walks as the closed-loop requests above. */
function pacedClient(
  agent: http.Agent,
  deadline: number,
  interval: number,
  firstAt: number,
  record: (status: number | 'error' | 'timeout', ms: number) => void,
): Promise<void> {
  let step = 0;
  let page = 0;
  let cursor: string | null = null;
  const nextPath = () => {
    if (step === 0) {
      page = (nextStart % input.pages) + 1;
      nextStart += walk;
    } else page = (page % input.pages) + 1;
    const path = step > 0 && input.cursors && cursor ? cursorPath(input.jobId, cursor, input.pageSize) : resultsPath(input.jobId, page, input.pageSize);
    step = (step + 1) % walk;
    return path;
  };
  const get = (path: string) =>
    new Promise<void>((done) => {
      const start = performance.now();
      const req = http.get(input.url + path, { agent, headers: { authorization: `Bearer ${input.token}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (input.cursors) cursor = nextCursorOf(Buffer.concat(chunks).toString('utf8'));
          record(res.statusCode ?? 0, performance.now() - start);
          done();
        });
        res.on('error', () => {
          record('error', performance.now() - start);
          done();
        });
      });
      req.setTimeout(input.timeoutSeconds * 1000, () => req.destroy(new Error('timeout')));
      req.on('error', (error) => {
        record(error.message === 'timeout' ? 'timeout' : 'error', performance.now() - start);
        done();
      });
    });
  return (async () => {
    let at = firstAt;
    while (at < deadline) {
      const wait = at - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await get(nextPath());
      // The next slot, or now if this page overran it: late pages are not made up in a burst.
      at = Math.max(at + interval, performance.now());
    }
  })();
}

async function paced(): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: input.clients });
  const interval = 1000 / input.rate;
  const start = performance.now();
  const deadline = start + input.seconds * 1000;
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const record = (status: number | 'error' | 'timeout', ms: number) => {
    if (status === 'error') errors += 1;
    else if (status === 'timeout') timeouts += 1;
    else {
      statusCodes[String(status)] = (statusCodes[String(status)] ?? 0) + 1;
      if (status >= 200 && status < 300) ok += 1;
      else non2xx += 1;
      latencies.push(ms);
    }
  };
  await Promise.all(Array.from({ length: input.clients }, (_, c) => pacedClient(agent, deadline, interval, start + (c * interval) / input.clients, record)));
  agent.destroy();
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((x, y) => x - y);
  const at = (p: number) => (latencies.length === 0 ? 0 : (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number));
  return {
    ok,
    non2xx,
    errors,
    timeouts,
    seconds,
    rps: ok / seconds,
    latencyP50: at(0.5),
    latencyP99: at(0.99),
    latencyMax: latencies.at(-1) ?? 0,
    statusCodes,
  };
}

const result =
  input.rate > 0
    ? await paced()
    : await load({
        url: input.url,
        path: resultsPath(input.jobId, 1, input.pageSize),
        token: input.token,
        connections: input.clients,
        seconds: input.seconds,
        timeoutSeconds: input.timeoutSeconds,
        requests,
      });
parentPort?.postMessage(result);
