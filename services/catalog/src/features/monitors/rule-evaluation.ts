import type { MonitorRule, ObservedChange, TrackedValue } from '@crawl/contracts';
import type { MonitorDefinition } from './monitor-model.ts';

// The rules as pure functions of a change's two values: no I/O, no clock. A report's changes are
// tested in one pass (watch filter, target lookup, then the monitor's few rules), so evaluating a
// target costs microseconds; the I/O happens only for a rule that fires.

/** A rule that fired for a change of one of the monitor's targets. */
export interface Firing {
  ruleIndex: number;
  rule: MonitorRule;
  change: ObservedChange;
  /** The monitor's target the change is about: the ASIN, or the keyword as the monitor spells it. */
  target: string;
}

/** What evaluating needs of a monitor. */
export type EvaluatedMonitor = Pick<MonitorDefinition, 'type' | 'targets' | 'watch' | 'rules'>;

const isNumber = (value: TrackedValue): value is number => typeof value === 'number' && Number.isFinite(value);

/** Percentages computed from amounts such as 19.99 land a hair off the threshold they meet. */
const EPSILON = 1e-9;

/** The tracked field a change is of: `bestSellersRank:Electronics` is a `bestSellersRank` change. */
export function baseField(field: string): string {
  const colon = field.indexOf(':');
  return colon < 0 ? field : field.slice(0, colon);
}

/** A keyword as jobs and history compare them: lower case, single spaces. */
export const normalizeKeyword = (keyword: string): string => keyword.trim().replace(/\s+/g, ' ').toLowerCase();

/** (current − previous) / previous in percent, rounded to 2 decimals; null unless both are numbers and previous is not 0. */
export function changePercent(previous: TrackedValue, current: TrackedValue): number | null {
  if (!isNumber(previous) || !isNumber(current) || previous === 0) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 10_000) / 100;
}

/** `value` is in the zone now and was not before (a previous value of none counts as outside). */
const entered = (previous: TrackedValue, current: TrackedValue, inZone: (value: number) => boolean): boolean =>
  isNumber(current) && inZone(current) && !(isNumber(previous) && inZone(previous));

/**
 * Whether a change from `previous` to `current` passes the rule (its field already matched).
 * Percent rules need a previous value above 0: from 0 (or from none) no change is a percentage.
 * Thresholds and ranks fire when the value crosses into the zone, not on every change inside it.
 */
export function ruleFires(rule: MonitorRule, previous: TrackedValue, current: TrackedValue): boolean {
  const value = rule.value ?? Number.NaN;
  switch (rule.op) {
    case 'changed':
      return previous !== current;
    case 'dropsBy':
      return isNumber(previous) && isNumber(current) && previous > 0 && ((previous - current) / previous) * 100 >= value - EPSILON;
    case 'risesBy':
      return isNumber(previous) && isNumber(current) && previous > 0 && ((current - previous) / previous) * 100 >= value - EPSILON;
    case 'below':
      return entered(previous, current, (v) => v < value);
    case 'above':
      return entered(previous, current, (v) => v > value);
    case 'becomesUnavailable':
      return previous === true && current === false;
    case 'becomesAvailable':
      return previous === false && current === true;
    case 'sellerChanges':
      return typeof current === 'string' && current !== '' && current !== previous;
    case 'entersTop':
      return entered(previous, current, (rank) => rank <= value);
    case 'leavesTop':
      // Out of the top: a rank past it, or none (no longer ranked).
      return isNumber(previous) && previous <= value && !(isNumber(current) && current <= value);
  }
}

/** The ASIN a job asked for when its page showed another (a variation): history follows the one shown. */
export type RequestedAsin = (change: ObservedChange) => string | undefined;

/** Finds the monitor's target a change is about; built once per evaluation, only when a change needs it. */
function targetFinder(monitor: EvaluatedMonitor, requested: RequestedAsin | undefined): (change: ObservedChange) => string | undefined {
  if (monitor.type === 'details') {
    const asins = new Set(monitor.targets);
    return (change) => {
      if (change.subject.kind !== 'product') return undefined;
      if (asins.has(change.subject.asin)) return change.subject.asin;
      const asked = requested?.(change);
      return asked !== undefined && asins.has(asked) ? asked : undefined;
    };
  }
  const keywords = new Map(monitor.targets.map((keyword) => [normalizeKeyword(keyword), keyword]));
  return ({ subject }) => (subject.kind === 'rank' ? keywords.get(normalizeKeyword(subject.keyword)) : undefined);
}

/**
 * The rules that fire for a job's changes: each change of this job, of a watched field, about one
 * of the monitor's targets (for a details monitor, also a variation its page showed for a target:
 * `requested`), tested against the rules on its field (`bestSellersRank` rules apply to every
 * category's rank).
 */
export function evaluateRules(monitor: EvaluatedMonitor, job: { _id: string }, changes: readonly ObservedChange[], requested?: RequestedAsin): Firing[] {
  const firings: Firing[] = [];
  let findTarget: ((change: ObservedChange) => string | undefined) | undefined;
  for (const change of changes) {
    if (change.jobId !== job._id) continue;
    const field = baseField(change.field);
    if (!(monitor.watch as readonly string[]).includes(field)) continue;
    findTarget ??= targetFinder(monitor, requested);
    const target = findTarget(change);
    if (target === undefined) continue;
    monitor.rules.forEach((rule, ruleIndex) => {
      if (rule.field === field && ruleFires(rule, change.previous, change.current)) firings.push({ ruleIndex, rule, change, target });
    });
  }
  return firings;
}
