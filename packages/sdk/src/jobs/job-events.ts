import type { MonitorEvent, Target } from '@crawl/contracts';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { CrawlApiError } from '../errors.ts';
import type { Transport } from '../http/transport.ts';
import { sleep } from '../http/retry-policy.ts';
import type { Job, JobProgress } from '../types.ts';
import { normalizeJob } from '../variants.ts';

/**
 * The events of `GET /jobs/:id/events` (docs/clients.md): a snapshot and status changes, targets
 * as they end, on a monitor's run the `monitor.triggered` events its rules fired (after the
 * target's event), then the end.
 */
export type JobEvent =
  | { type: 'job'; id: string | undefined; job: Job }
  | { type: 'target'; id: string | undefined; jobId: string; index: number; target: Target; progress: JobProgress }
  | { type: 'monitor'; id: string | undefined; event: MonitorEvent }
  | { type: 'end'; id: string | undefined; job: Job };

export interface JobEventsOptions {
  signal?: AbortSignal;
  /** Resume after this event id (as a reconnect does with `Last-Event-ID`). */
  lastEventId?: string;
  /** Reconnects in a row without an event in between before giving up. Default 5. */
  maxReconnects?: number;
  /** A connection that sends nothing (not even the 15 s heartbeat) for this long is dropped and reopened. Default 45 s. */
  idleTimeoutMs?: number;
}

/** The server has no event stream for jobs (an older server): use polling instead. */
export class JobEventsUnavailableError extends Error {
  override readonly name = 'JobEventsUnavailableError';
}

/** The stream kept breaking before the job ended. */
export class JobEventsInterruptedError extends Error {
  override readonly name = 'JobEventsInterruptedError';
}

const DEFAULT_RECONNECT_MS = 3000;

/**
 * The job's events as an async iterator, ending after the `end` event. A dropped connection is
 * reopened with `Last-Event-ID` after the server's `retry:` delay, so no event is lost or repeated.
 * Works with any fetch (browsers included): EventSource cannot send the Authorization header.
 */
export async function* jobEvents(
  transport: Transport,
  jobId: string,
  options: JobEventsOptions = {},
  /** Asked when the stream route answers 404, to tell an unknown job (its error is thrown) from a server without the route. */
  confirmJobExists: () => Promise<unknown> = async () => undefined,
): AsyncGenerator<JobEvent, void, undefined> {
  const path = `/jobs/${encodeURIComponent(jobId)}/events`;
  let lastEventId = options.lastEventId;
  let reconnectMs = DEFAULT_RECONNECT_MS;
  let failures = 0;
  const maxReconnects = options.maxReconnects ?? 5;
  const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;

  for (;;) {
    const connection = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, connection.signal]) : connection.signal;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error('event stream idle')), idleTimeoutMs);
    };
    try {
      let response: Response;
      try {
        response = await transport.request('GET', path, {
          signal,
          headers: { accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) },
        });
      } catch (error) {
        if (error instanceof CrawlApiError && [404, 405, 501].includes(error.status)) {
          if (error.status === 404) await confirmJobExists();
          throw new JobEventsUnavailableError(`the server has no event stream for jobs (${error.status})`, { cause: error });
        }
        throw error;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.startsWith('text/event-stream')) {
        await response.body?.cancel();
        throw new JobEventsUnavailableError(`the event stream answered ${type || 'without a content type'}`);
      }
      if (!response.body) throw new JobEventsUnavailableError('the event stream answered without a body');
      touch();
      const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(
        new EventSourceParserStream({
          onRetry: (ms) => {
            reconnectMs = ms;
          },
          onComment: touch,
        }),
      );
      const reader = messages.getReader();
      try {
        for (;;) {
          const { value: message, done } = await reader.read();
          if (done) break;
          touch();
          if (message.id !== undefined) lastEventId = message.id;
          const event = parseEvent(message.event, message.id, message.data);
          if (!event) continue;
          failures = 0;
          yield event;
          if (event.type === 'end') return;
        }
      } finally {
        clearTimeout(idle);
        reader.cancel().catch(() => {});
      }
    } catch (error) {
      clearTimeout(idle);
      if (error instanceof JobEventsUnavailableError || error instanceof CrawlApiError || options.signal?.aborted) throw error;
      // A broken or idle connection: reopen it below.
    }
    failures++;
    if (failures > maxReconnects) throw new JobEventsInterruptedError(`the event stream of job ${jobId} broke ${failures} times in a row`);
    await sleep(reconnectMs, options.signal);
  }
}

function parseEvent(type: string | undefined, id: string | undefined, data: string): JobEvent | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return undefined;
  }
  switch (type) {
    case 'job':
      return { type: 'job', id, job: normalizeJob(payload) };
    case 'end':
      return { type: 'end', id, job: normalizeJob(payload) };
    case 'monitor':
      return { type: 'monitor', id, event: payload as MonitorEvent };
    case 'target': {
      const { jobId, index, target, progress } = payload as { jobId: string; index: number; target: Target | string; progress: JobProgress };
      return { type: 'target', id, jobId, index, target: typeof target === 'string' ? { value: target, status: 'success' } : target, progress };
    }
    default:
      // Event types a newer server may add are skipped.
      return undefined;
  }
}
