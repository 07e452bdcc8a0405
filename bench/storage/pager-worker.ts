// Worker thread: N clients paging through a job's results for a bounded time, so the latency
// probe in the main thread is not slowed by this load's client-side work.
//
// Each client walks `pages / clients` consecutive pages, then starts a new walk further on, so
// together they cover the whole job, early and late pages alike. A walk starts with a page number
// and goes on with `pagination.nextCursor` where the service offers cursors (with page numbers
// otherwise), the way a client downloading the results would.
import { parentPort, workerData } from 'node:worker_threads';
import type autocannon from 'autocannon';
import { cursorPath, nextCursorOf, resultsPath } from './api.ts';
import { load } from './load.ts';

export interface PagerInput {
  url: string;
  token: string;
  jobId: string;
  pageSize: number;
  pages: number;
  clients: number;
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

const result = await load({
  url: input.url,
  path: resultsPath(input.jobId, 1, input.pageSize),
  token: input.token,
  connections: input.clients,
  seconds: input.seconds,
  timeoutSeconds: input.timeoutSeconds,
  requests,
});
parentPort?.postMessage(result);
