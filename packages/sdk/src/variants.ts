import type { Target, TargetCharges } from '@crawl/contracts';
import type { Job, JobProgress, Session } from './types.ts';

/**
 * The spec documents two shapes of a session answer: the fields at the top level, or wrapped in
 * `data`. This server sends both; any server that sends either one is read the same way.
 */
export function normalizeSession(body: unknown): Session {
  const top = (body ?? {}) as Partial<Session> & { data?: Partial<Session> };
  const source = typeof top.accessToken === 'string' ? top : (top.data ?? {});
  if (typeof source.accessToken !== 'string' || !source.user) throw new TypeError('the session answer has no accessToken and user');
  return { accessToken: source.accessToken, tokenType: source.tokenType ?? 'Bearer', expiresIn: source.expiresIn ?? 0, user: source.user };
}

/**
 * The spec documents a job's targets as `{value, status}` objects (variant A) or plain strings
 * (variant B). Plain strings become objects; their status can only be inferred from the job's:
 * `success` once it completed, `pending` otherwise.
 */
export function normalizeJob(raw: unknown): Job {
  const job = raw as Omit<Job, 'targets'> & { targets?: Array<Target | string> };
  const targets = (job.targets ?? []).map(
    (target): Target => (typeof target === 'string' ? { value: target, status: job.status === 'completed' ? 'success' : 'pending' } : target),
  );
  return { ...job, targets };
}

/** Counts a job's targets by outcome (cancelled targets count as failed: they will not succeed). */
export function progressOf(job: Pick<Job, 'targets'>): JobProgress {
  let done = 0;
  let failed = 0;
  for (const target of job.targets) {
    if (target.status === 'success') done++;
    else if (target.status === 'failed' || target.status === 'cancelled') failed++;
  }
  const total = job.targets.length;
  return { total, done, failed, pending: total - done - failed };
}

/**
 * A job's successful targets split by charge: the job's own `charges`, or, from a server that does
 * not send them, counted from its targets (a success without `charged: false` is charged).
 */
export function chargesOf(job: Pick<Job, 'targets' | 'charges'>): TargetCharges {
  if (job.charges) return job.charges;
  let chargedTargets = 0;
  let unchargedTargets = 0;
  for (const target of job.targets) {
    if (target.status !== 'success') continue;
    if (target.charged === false) unchargedTargets++;
    else chargedTargets++;
  }
  return { chargedTargets, unchargedTargets };
}
