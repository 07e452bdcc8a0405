import { ProcessMetrics } from '@crawl/metrics';
import type { JobHandler, QueueDefinition, QueueProvider } from '@crawl/queue';
import { tracingActive } from '@crawl/tracing';
import { startInMemoryTracing } from '@crawl/tracing/testing';
import { describe, expect, it } from 'vitest';
import { contextualQueues } from './queue-context.ts';

interface Task {
  jobId: string;
  organizationId: string;
}

const definition: QueueDefinition<Task> = {
  name: 'traced-tasks',
  retry: { attempts: 1, backoffMs: 0, maxBackoffMs: 0 },
  // Like the real definitions: unknown fields are dropped.
  parse: (raw) => ({ jobId: (raw as Task).jobId, organizationId: (raw as Task).organizationId }),
};

/** A backend that keeps what it is given, and hands a stored task to the handler the way a backend does (parsed). */
function recordingBackend() {
  const stored: Array<Record<string, any>> = [];
  let handler: JobHandler<Task> | undefined;
  let parse: (raw: unknown) => Task = definition.parse;
  const provider = {
    kind: 'in-process',
    queue: (def: QueueDefinition<Task>) => {
      parse = def.parse;
      return {
        name: def.name,
        add: async (payload: Task) => {
          stored.push(payload as Record<string, any>);
          return { id: `task-${stored.length}` };
        },
        process: async (h: JobHandler<Task>) => {
          handler = h;
        },
      };
    },
  } as unknown as QueueProvider;
  const run = async (raw: unknown) => {
    await handler?.({ id: 'task', payload: parse(raw), attempt: 1, maxAttempts: 1, group: undefined });
  };
  return { provider, stored, run };
}

describe('trace context through a queued task', () => {
  it('with tracing off, adds no trace context to a task and opens no span', async () => {
    const backend = recordingBackend();
    const queue = contextualQueues(backend.provider, new ProcessMetrics()).queue(definition);
    await queue.add({ jobId: 'job_1', organizationId: 'org_1' });
    expect(tracingActive()).toBe(false);
    expect(backend.stored[0]?.taskContext).toEqual({ dueAt: expect.any(Number) });
  });

  it('with tracing on, the consumer span continues the producer span’s trace; a forged trace context starts a new one', async () => {
    const tracing = await startInMemoryTracing();
    const backend = recordingBackend();
    const queue = contextualQueues(backend.provider, new ProcessMetrics()).queue(definition);
    let seen: Task | undefined;
    await queue.process(
      async (job) => {
        seen = job.payload;
      },
      { concurrency: 1 },
    );

    await queue.add({ jobId: 'job_2', organizationId: 'org_2' });
    const context = backend.stored[0]?.taskContext;
    const [, traceId, spanId] = /^00-([\da-f]{32})-([\da-f]{16})-01$/.exec(context?.traceparent) ?? [];
    const send = (await tracing.spans()).find((s) => s.name === 'send traced-tasks');
    expect(send).toMatchObject({ kind: 'producer', traceId, spanId, attributes: { 'crawl.job.id': 'job_2', 'crawl.organization.id': 'org_2' } });

    await backend.run(backend.stored[0]);
    // The handler gets its own payload, without the context riding along.
    expect(seen).toEqual({ jobId: 'job_2', organizationId: 'org_2' });
    const processed = (await tracing.spans()).find((s) => s.name === 'process traced-tasks');
    expect(processed).toMatchObject({
      kind: 'consumer',
      traceId,
      parentSpanId: spanId,
      attributes: { 'messaging.destination.name': 'traced-tasks', 'crawl.job.id': 'job_2', 'crawl.task.attempt': 1 },
    });

    await backend.run({ ...backend.stored[0], taskContext: { dueAt: Date.now(), traceparent: `00-${traceId}-not-a-span-id` } });
    const forged = (await tracing.spans()).filter((s) => s.name === 'process traced-tasks')[1];
    expect(forged?.parentSpanId).toBeUndefined();
    expect(forged?.traceId).not.toBe(traceId);
  });
});
