export interface BullMqOptions {
  /** Redis connection string. */
  url: string;
  /** Key prefix of every queue (default `crawl`); tests use a random one. */
  prefix?: string;
  /** How long a worker holds a job without renewing its lock before it counts as stalled. */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs (those whose worker died) and hand them back. */
  stalledIntervalMs?: number;
  /** Stalls after which BullMQ gives a job up (default 5: a crash loop must not spin forever). */
  maxStalledCount?: number;
  /** Bound on producer calls (add, stats) so an outage fails a request instead of hanging it. */
  commandTimeoutMs?: number;
  /** How often a watched queue checks its marker key for a lost queue (see `WorkQueue.onLost`); default 5 s. */
  lossCheckIntervalMs?: number;
  logger?: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}
