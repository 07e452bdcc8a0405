import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BoundedLabel, statusClass } from './bounded-label.ts';
import type { CrawlMetrics, UpstreamRequest } from './ports.ts';

/** One queue's counts as the queue port reports them. */
export interface QueueDepth {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

// The job types and page kinds of @crawl/contracts' JOB_TYPES (kept here: metrics depends on no contract).
const JOB_TYPES = ['search', 'details', 'reviews', 'offers', 'bestsellers', 'category', 'seller', 'autocomplete'];
const JOB_STATUSES = ['completed', 'failed', 'cancelled', 'partial'];
const TARGET_OUTCOMES = ['success', 'failed'];
// Target failure reasons, and `second_chance`: a retry for a short record, not a failure.
const FAILURE_REASONS = [
  'blocked',
  'unrecognized_page',
  'not_found',
  'timeout',
  'upstream_error',
  'parse_error',
  'invalid_target',
  'cancelled',
  'insufficient_credits',
  'second_chance',
];
const PAGE_KINDS = ['search', 'product', 'reviews', 'offers', 'bestsellers', 'category', 'seller', 'autocomplete'];
const WEBHOOK_OUTCOMES = ['delivered', 'failed', 'exhausted', 'skipped'];

/**
 * The process's Prometheus registry and every metric family of the service. Each process
 * registers all families, whichever services it runs, so dashboards and alerts find the same
 * names everywhere (a family a process does not feed stays at zero or empty).
 */
export class ProcessMetrics implements CrawlMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'route' | 'method' | 'status_class'>;
  readonly #queues = new Map<string, () => Promise<QueueDepth>>();
  readonly #queueAges = new Map<string, () => Promise<number | undefined>>();

  readonly #jobsCreated: Counter<'type'>;
  readonly #jobsFinished: Counter<'type' | 'status'>;
  readonly #jobDuration: Histogram<'type' | 'status'>;
  readonly #targets: Counter<'type' | 'outcome' | 'reason'>;
  readonly #cacheHits: Counter<'type'>;
  readonly #cacheMisses: Counter<'type'>;
  readonly #upstreamRequests: Counter<'domain' | 'status'>;
  readonly #upstreamByEgress: Counter<'egress' | 'status'>;
  readonly #upstreamRetries: Counter<'domain' | 'reason'>;
  readonly #upstreamBlocks: Counter<'domain' | 'egress'>;
  readonly #upstreamBytes: Counter<'domain'>;
  readonly #fetchDuration: Histogram<'domain'>;
  readonly #pagesParsed: Counter<'kind' | 'outcome'>;
  readonly #parseDuration: Histogram<'kind'>;
  readonly #fieldsMissing: Counter<'kind' | 'field'>;
  readonly #creditsReserved: Counter;
  readonly #creditsCaptured: Counter;
  readonly #creditsRefunded: Counter;
  readonly #webhookAttempts: Counter<'outcome'>;
  readonly #webhookLag: Histogram;
  readonly #queueWait: Histogram<'queue'>;

  readonly #type = new BoundedLabel(JOB_TYPES);
  readonly #status = new BoundedLabel(JOB_STATUSES);
  readonly #outcome = new BoundedLabel(TARGET_OUTCOMES);
  readonly #reason = new BoundedLabel(FAILURE_REASONS);
  readonly #domain = new BoundedLabel([], 32);
  readonly #egress = new BoundedLabel(['direct'], 64);
  readonly #kind = new BoundedLabel(PAGE_KINDS);
  readonly #field = new BoundedLabel([], 64);
  readonly #webhookOutcome = new BoundedLabel(WEBHOOK_OUTCOMES);
  readonly #queueName = new BoundedLabel([], 16);
  readonly #upstreamStatus = new BoundedLabel(['1xx', '2xx', '3xx', '4xx', '5xx', 'timeout', 'network', 'error'], 4);

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });

    this.httpDuration = new Histogram({
      name: 'crawl_http_request_duration_seconds',
      help: 'HTTP requests served by this process, by route template, method and status class (its _count is the request count).',
      labelNames: ['route', 'method', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });

    const queues = this.#queues;
    new Gauge({
      name: 'crawl_queue_depth',
      help: 'Tasks in each queue this process opened, by state (waiting, active, delayed, failed), read from the queue backend at scrape time.',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        await Promise.all(
          [...queues].map(async ([queue, read]) => {
            const depth = await read().catch(() => undefined);
            if (!depth) return;
            for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) this.set({ queue, state }, depth[state]);
          }),
        );
      },
    });
    const ages = this.#queueAges;
    new Gauge({
      name: 'crawl_queue_oldest_waiting_seconds',
      help: 'Age of the oldest task waiting in each queue this process opened (since it was first due), 0 when none waits, read at scrape time.',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.reset();
        await Promise.all(
          [...ages].map(async ([queue, read]) => {
            const ageMs = await read().then(
              (value) => value ?? 0,
              () => undefined,
            );
            if (ageMs !== undefined) this.set({ queue }, ageMs / 1000);
          }),
        );
      },
    });
    this.#queueWait = new Histogram({
      name: 'crawl_queue_wait_seconds',
      help: 'Time a task waited in its queue before a worker of this process started it.',
      labelNames: ['queue'],
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 3600],
      registers,
    });

    this.#jobsCreated = new Counter({ name: 'crawl_jobs_created_total', help: 'Crawl jobs created, by type.', labelNames: ['type'], registers });
    this.#jobsFinished = new Counter({
      name: 'crawl_jobs_finished_total',
      help: 'Crawl jobs that reached a final status, by type and status.',
      labelNames: ['type', 'status'],
      registers,
    });
    this.#jobDuration = new Histogram({
      name: 'crawl_job_duration_seconds',
      help: 'Time from a job’s creation to its final status.',
      labelNames: ['type', 'status'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
      registers,
    });
    this.#targets = new Counter({
      name: 'crawl_targets_finished_total',
      help: 'Targets crawled and reported, by job type, outcome (success, failed) and failure reason (none on success).',
      labelNames: ['type', 'outcome', 'reason'],
      registers,
    });
    this.#cacheHits = new Counter({
      name: 'crawl_cache_hits_total',
      help: 'Targets of jobs with config.maxAge answered from the shared page cache, by job type.',
      labelNames: ['type'],
      registers,
    });
    this.#cacheMisses = new Counter({
      name: 'crawl_cache_misses_total',
      help: 'Targets of jobs with config.maxAge the shared page cache could not answer (fetched from the marketplace), by job type.',
      labelNames: ['type'],
      registers,
    });

    this.#upstreamRequests = new Counter({
      name: 'crawl_upstream_requests_total',
      help: 'Requests to the marketplace, by domain and HTTP status class (or timeout/network when none came).',
      labelNames: ['domain', 'status'],
      registers,
    });
    this.#upstreamByEgress = new Counter({
      name: 'crawl_upstream_egress_requests_total',
      help: 'Requests to the marketplace by egress identity (proxy id or direct) and status class.',
      labelNames: ['egress', 'status'],
      registers,
    });
    this.#upstreamRetries = new Counter({
      name: 'crawl_upstream_retries_total',
      help: 'Requests to the marketplace tried again, by domain and the reason of the failed try.',
      labelNames: ['domain', 'reason'],
      registers,
    });
    this.#upstreamBlocks = new Counter({
      name: 'crawl_upstream_blocks_total',
      help: 'Answers recognised as a block (CAPTCHA, 403, 429), by domain and egress identity.',
      labelNames: ['domain', 'egress'],
      registers,
    });
    this.#upstreamBytes = new Counter({
      name: 'crawl_upstream_response_bytes_total',
      help: 'Bytes of marketplace pages received (decompressed), by domain.',
      labelNames: ['domain'],
      registers,
    });
    this.#fetchDuration = new Histogram({
      name: 'crawl_upstream_fetch_duration_seconds',
      help: 'Time of one request to the marketplace, from sending to the whole body, by domain.',
      labelNames: ['domain'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers,
    });

    this.#pagesParsed = new Counter({
      name: 'crawl_parser_pages_total',
      help: 'Pages parsed, by kind (search, product) and outcome (ok, error).',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.#parseDuration = new Histogram({
      name: 'crawl_parser_duration_seconds',
      help: 'Time to parse one page, queueing for a parse thread included.',
      labelNames: ['kind'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.#fieldsMissing = new Counter({
      name: 'crawl_parser_fields_missing_total',
      help: 'Fields a parsed page had no value for, by page kind and field name.',
      labelNames: ['kind', 'field'],
      registers,
    });

    this.#creditsReserved = new Counter({ name: 'crawl_credits_reserved_total', help: 'Credits reserved for jobs.', registers });
    this.#creditsCaptured = new Counter({ name: 'crawl_credits_captured_total', help: 'Reserved credits charged when jobs settled.', registers });
    this.#creditsRefunded = new Counter({
      name: 'crawl_credits_refunded_total',
      help: 'Reserved credits given back when jobs settled or reservations expired.',
      registers,
    });

    this.#webhookAttempts = new Counter({
      name: 'crawl_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, failed, exhausted, skipped).',
      labelNames: ['outcome'],
      registers,
    });
    this.#webhookLag = new Histogram({
      name: 'crawl_webhook_delivery_lag_seconds',
      help: 'Time from the event to its successful delivery (retries included).',
      buckets: [0.1, 0.5, 1, 5, 30, 60, 300, 1800, 3600, 21600, 86400],
      registers,
    });
  }

  /**
   * Reports the queue's depth at every scrape (the backend is asked then, not on every change),
   * and the age of its oldest waiting task when `oldestWaitingAgeMs` is given.
   */
  watchQueue(name: string, read: () => Promise<QueueDepth>, oldestWaitingAgeMs?: () => Promise<number | undefined>): void {
    const label = this.#queueName.of(name);
    this.#queues.set(label, read);
    if (oldestWaitingAgeMs) this.#queueAges.set(label, oldestWaitingAgeMs);
  }

  /** The exposition text of every family, and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  jobCreated(type: string): void {
    this.#jobsCreated.inc({ type: this.#type.of(type) });
  }

  jobFinished(type: string, status: string, seconds: number | undefined): void {
    const labels = { type: this.#type.of(type), status: this.#status.of(status) };
    this.#jobsFinished.inc(labels);
    if (seconds !== undefined && seconds >= 0) this.#jobDuration.observe(labels, seconds);
  }

  targetFinished(type: string, outcome: string, reason: string | undefined): void {
    this.#targets.inc({ type: this.#type.of(type), outcome: this.#outcome.of(outcome), reason: this.#reason.of(reason) });
  }

  pageCacheLookup(type: string, hit: boolean): void {
    (hit ? this.#cacheHits : this.#cacheMisses).inc({ type: this.#type.of(type) });
  }

  upstreamRequest(request: UpstreamRequest): void {
    const domain = this.#domain.of(request.domain);
    const status = this.#upstreamStatus.of(typeof request.status === 'number' ? statusClass(request.status) : request.status);
    this.#upstreamRequests.inc({ domain, status });
    this.#upstreamByEgress.inc({ egress: this.#egress.of(request.egress), status });
    if (request.bytes > 0) this.#upstreamBytes.inc({ domain }, request.bytes);
    this.#fetchDuration.observe({ domain }, request.seconds);
  }

  upstreamRetry(domain: string, reason: string): void {
    this.#upstreamRetries.inc({ domain: this.#domain.of(domain), reason: this.#reason.of(reason) });
  }

  upstreamBlocked(domain: string, egress: string): void {
    this.#upstreamBlocks.inc({ domain: this.#domain.of(domain), egress: this.#egress.of(egress) });
  }

  pageParsed(kind: string, seconds: number, ok: boolean): void {
    const label = this.#kind.of(kind);
    this.#pagesParsed.inc({ kind: label, outcome: ok ? 'ok' : 'error' });
    this.#parseDuration.observe({ kind: label }, seconds);
  }

  fieldMissing(kind: string, field: string): void {
    this.#fieldsMissing.inc({ kind: this.#kind.of(kind), field: this.#field.of(field) });
  }

  creditsReserved(credits: number): void {
    if (credits > 0) this.#creditsReserved.inc(credits);
  }

  creditsCaptured(credits: number): void {
    if (credits > 0) this.#creditsCaptured.inc(credits);
  }

  creditsRefunded(credits: number): void {
    if (credits > 0) this.#creditsRefunded.inc(credits);
  }

  webhookAttempt(outcome: string, lagSeconds: number | undefined): void {
    this.#webhookAttempts.inc({ outcome: this.#webhookOutcome.of(outcome) });
    if (lagSeconds !== undefined && lagSeconds >= 0) this.#webhookLag.observe(lagSeconds);
  }

  taskWaited(queue: string, seconds: number): void {
    if (seconds >= 0) this.#queueWait.observe({ queue: this.#queueName.of(queue) }, seconds);
  }
}
