import { currentLogContext, isRequestId, runWithLogContext, type LogContext } from '@crawl/logging';
import type { ProcessMetrics } from '@crawl/metrics';
import type { JobHandler, QueueDefinition, QueueJob, QueueProvider, WorkQueue } from '@crawl/queue';
import { traceCarrierFrom, tracedProcess, tracedSend, type TraceCarrier } from '@crawl/tracing';

/**
 * What a queued task carries of the request that added it, next to its own fields: the request
 * id and organization for the worker's log lines and its calls (so one id tells the story from
 * the API call to the report), and when it became due, for the wait-time histogram. A consumer
 * of an older version drops the field (payload schemas drop unknown properties). With tracing on,
 * also the W3C trace context of the producer's span, so the consumer's span continues its trace.
 */
interface TaskContext {
  reqId?: string;
  orgId?: string;
  /** Epoch ms the task became due (added, plus its delay). */
  dueAt: number;
  traceparent?: string;
  tracestate?: string;
}

const FIELD = 'taskContext';

/** A task as the queue carries it: the payload's own fields and, once `add` has been through, its context. */
type Envelope<P> = P & { readonly [FIELD]?: TaskContext };

/** A payload read back from the queue: whatever it holds next to its own fields is unchecked. */
interface RawEnvelope {
  readonly [FIELD]?: unknown;
}

/** A context read back: another version (or something else) may have written it, so no field is certain. */
type StoredContext = { readonly [K in keyof TaskContext]?: unknown };

/** The fields of a payload that name its job and organization, when it has them (crawl and webhook tasks do). */
interface TaskNames {
  readonly jobId?: unknown;
  readonly organizationId?: unknown;
}

/**
 * Decorates a queue provider: `add` records the producer's log context in the task, and each
 * handler runs in a log context rebuilt from it (plus the task's organization and job when its
 * payload names them). Every queue opened is also reported in `crawl_queue_depth` and `crawl_queue_oldest_waiting_seconds`.
 */
export function contextualQueues(provider: QueueProvider, metrics: ProcessMetrics, now: () => number = Date.now): QueueProvider {
  const queue = <P>(definition: QueueDefinition<P>): WorkQueue<P> => {
    const inner = provider.queue<P>({ ...definition, parse: (raw) => keepContext(definition.parse(raw), raw) });
    metrics.watchQueue(
      definition.name,
      () => inner.stats(),
      () => inner.oldestWaitingAgeMs(),
    );
    const add: WorkQueue<P>['add'] = (payload, options) =>
      tracedSend(
        definition.name,
        () => taskAttributes(payload),
        (trace) => inner.add(withContext(payload, now() + (options?.delayMs ?? 0), trace), options),
      );
    const process: WorkQueue<P>['process'] = (handler, options) => inner.process(inContext(definition.name, handler, metrics, now), options);
    return forwarding(inner, { add, process });
  };
  return forwarding(provider, { queue });
}

/** `target` with some members replaced; every other member (present or added later to the port) is the target's own. */
function forwarding<T extends object>(target: T, replaced: Partial<T>): T {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(replaced, property)) return replaced[property as keyof T];
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      let method = bound.get(property);
      if (!method) bound.set(property, (method = value.bind(object)));
      return method;
    },
  });
}

function withContext<P>(payload: P, dueAt: number, trace: TraceCarrier | undefined): P {
  if (typeof payload !== 'object' || payload === null) return payload;
  const { reqId, orgId } = currentLogContext();
  const context: TaskContext = { dueAt, ...(reqId ? { reqId } : {}), ...(orgId ? { orgId } : {}), ...trace };
  const envelope: Envelope<P> = { ...payload, [FIELD]: context };
  return envelope;
}

/** The definition's parse drops unknown fields; the context is read from the raw payload. */
function keepContext<P>(parsed: P, raw: unknown): P {
  const context = contextOf(raw);
  if (!context || typeof parsed !== 'object' || parsed === null) return parsed;
  const envelope: Envelope<P> = { ...parsed, [FIELD]: context };
  return envelope;
}

function contextOf(raw: unknown): TaskContext | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as RawEnvelope)[FIELD];
  if (typeof value !== 'object' || value === null) return undefined;
  const { reqId, orgId, dueAt, traceparent, tracestate } = value as StoredContext;
  return {
    dueAt: typeof dueAt === 'number' && Number.isFinite(dueAt) ? dueAt : Number.NaN,
    ...(isRequestId(reqId) ? { reqId } : {}),
    ...(typeof orgId === 'string' && orgId.length <= 128 ? { orgId } : {}),
    ...traceCarrierFrom(traceparent, tracestate),
  };
}

function inContext<P>(queue: string, handler: JobHandler<P>, metrics: ProcessMetrics, now: () => number): JobHandler<P> {
  return (job: QueueJob<P>) => {
    const { payload, context } = split(job.payload);
    if (context && job.attempt === 1 && Number.isFinite(context.dueAt)) metrics.taskWaited(queue, Math.max(0, now() - context.dueAt) / 1000);
    const names = payload as TaskNames;
    const log: LogContext = {};
    if (context?.reqId) log.reqId = context.reqId;
    const orgId = typeof names.organizationId === 'string' ? names.organizationId : (context?.orgId ?? job.group);
    if (orgId) log.orgId = orgId;
    if (typeof names.jobId === 'string') log.jobId = names.jobId;
    const carrier = context?.traceparent ? traceCarrierFrom(context.traceparent, context.tracestate) : undefined;
    const attributes = () => ({ ...taskAttributes(payload), 'messaging.message.id': job.id, 'crawl.task.attempt': job.attempt });
    return tracedProcess(queue, carrier, attributes, () => runWithLogContext(log, () => handler(context ? { ...job, payload } : job)));
  };
}

/** Span attributes naming the task's job and organization (attributes only: span names never hold an id). */
function taskAttributes(payload: unknown): Record<string, string> {
  if (typeof payload !== 'object' || payload === null) return {};
  const { jobId, organizationId } = payload as TaskNames;
  return {
    ...(typeof jobId === 'string' ? { 'crawl.job.id': jobId } : {}),
    ...(typeof organizationId === 'string' ? { 'crawl.organization.id': organizationId } : {}),
  };
}

function split<P>(payload: P): { payload: P; context: TaskContext | undefined } {
  if (typeof payload !== 'object' || payload === null || !(FIELD in payload)) return { payload, context: undefined };
  const { [FIELD]: context, ...rest } = payload as Envelope<P>;
  return { payload: rest as P, context };
}
