/**
 * The fault suite's durations. The two bounds the issue fixes keep their values by default: jobs
 * end within 2 minutes of a fault clearing, and the database is down for 20 s. The rest only
 * shape the load and may be shortened (FAULT_* variables) on a slow machine.
 */
function fromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of milliseconds or a count (got "${raw}")`);
  return value;
}

export const timings = {
  /** Every job must be terminal, and every reservation settled, this long after a fault clears. */
  settleMs: fromEnv('FAULT_SETTLE_MS', 120_000),
  /** How long the database stays down. */
  databaseOutageMs: fromEnv('FAULT_DB_OUTAGE_MS', 20_000),
  /** Delay of each upstream page in the mid-job rows, so a fault lands while targets run. */
  slowPageMs: fromEnv('FAULT_SLOW_PAGE_MS', 3_000),
  /** Creates fired at the gateway while catalog is killed. */
  burstCreates: fromEnv('FAULT_BURST_CREATES', 40),
  /** The longest gap between the two conflicting reports of one target. */
  duplicateReportMaxGapMs: fromEnv('FAULT_DUPLICATE_GAP_MS', 3_000),
};

/** The test timeout of a row: its own work plus the settle bound, with room for start-ups. */
export const rowTimeout = (workMs: number) => workMs + timings.settleMs + 60_000;
