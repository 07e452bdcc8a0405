import {
  DEFAULT_MONITOR_COOLDOWN,
  MONITOR_LIMITS,
  MONITOR_OP_FIELDS,
  MONITOR_OP_VALUES,
  MONITOR_WATCHABLE_FIELDS,
  type CreateMonitorBody,
  type MonitorRule,
  type TrackedField,
  type UpdateMonitorBody,
} from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import { marketplaceDomainOf } from '@crawl/marketplace';
import type { JobInput } from '../jobs/index.ts';
import { DEFAULT_TIMEZONE, validateCron } from '../schedules/index.ts';
import { runCreditsOf, type MonitorDefinition } from './monitor-model.ts';
import { durationMinutes } from './monitor-timing.ts';

/** A definition before its checks: the body's values, or the stored ones with a patch over them. */
type Draft = MonitorDefinition;

const describeInterval = (minutes: number): string => `${minutes}m`;

/** What `value` must be for each kind of operation, or why it is not (undefined: fine). */
function valueProblem(rule: MonitorRule, at: string): string | undefined {
  const kind = MONITOR_OP_VALUES[rule.op];
  if (kind === undefined) return rule.value === undefined ? undefined : `${at}.value: op "${rule.op}" takes no value`;
  const value = rule.value;
  if (value === undefined) {
    const wanted = { percent: 'a percentage above 0', threshold: 'the threshold', rank: 'a rank from 1' }[kind];
    return `${at}.value is required by op "${rule.op}" (${wanted})`;
  }
  if (kind === 'percent') {
    const max = rule.op === 'dropsBy' ? 100 : MONITOR_LIMITS.maxPercent;
    return value > 0 && value <= max ? undefined : `${at}.value ${value} is not a percentage above 0 and at most ${max}`;
  }
  if (kind === 'rank') {
    return Number.isInteger(value) && value >= 1 && value <= MONITOR_LIMITS.maxRank
      ? undefined
      : `${at}.value ${value} is not a rank from 1 to ${MONITOR_LIMITS.maxRank}`;
  }
  return undefined;
}

/** Every problem of the watched fields and the rules, each naming its place in the body. */
function ruleProblems(type: keyof typeof MONITOR_WATCHABLE_FIELDS, watch: readonly TrackedField[], rules: readonly MonitorRule[]): string[] {
  const problems: string[] = [];
  const watchable: readonly string[] = MONITOR_WATCHABLE_FIELDS[type];
  watch.forEach((field, index) => {
    if (!watchable.includes(field))
      problems.push(`watch[${index}] "${field}" is not a field of ${type} monitors; fields of ${type} monitors: ${watchable.join(', ')}`);
  });
  const seen = new Map<string, number>();
  rules.forEach((rule, index) => {
    const at = `rules[${index}]`;
    if (!watch.includes(rule.field)) problems.push(`${at}.field "${rule.field}" is not watched; add it to watch`);
    const fields = MONITOR_OP_FIELDS[rule.op];
    if (!fields.includes(rule.field)) problems.push(`${at}.op "${rule.op}" does not apply to ${rule.field}; it applies to ${fields.join(', ')}`);
    const value = valueProblem(rule, at);
    if (value) problems.push(value);
    const key = JSON.stringify([rule.field, rule.op, rule.value ?? null]);
    const first = seen.get(key);
    if (first !== undefined) problems.push(`${at} repeats rules[${first}]`);
    else seen.set(key, index);
  });
  return problems;
}

/**
 * A monitor's definition checked and normalized: targets, storefront and delivery location by the
 * job rules (the same `JobInput` a job create uses), the interval or cron rule, the watched fields
 * against the monitor's type, each rule's operation against its field and value, the budget
 * against one run. Every problem is a 400 naming the place in the body.
 */
export class MonitorDefinitions {
  readonly #input: JobInput;

  constructor(parts: { input: JobInput }) {
    this.#input = parts.input;
  }

  create(body: CreateMonitorBody & { targets: string[] }, now: Date): MonitorDefinition {
    if (body.every !== undefined && body.cron !== undefined) throw errors.validation('Give either every or cron, not both');
    if (body.every === undefined && body.cron === undefined) throw errors.validation('every (e.g. "1h") or cron (e.g. "0 6 * * *") is required');
    if (body.every !== undefined && body.timezone !== undefined) throw errors.validation('timezone applies to a cron monitor only');
    return this.#check(
      {
        name: body.name,
        type: body.type,
        targets: body.targets,
        domain: body.domain,
        deliveryZip: body.deliveryZip ?? null,
        every: body.every ?? null,
        cron: body.cron ?? null,
        timezone: body.cron !== undefined ? (body.timezone ?? DEFAULT_TIMEZONE) : null,
        watch: body.watch,
        rules: body.rules,
        cooldown: body.cooldown ?? DEFAULT_MONITOR_COOLDOWN,
        maxCreditsPerMonth: body.maxCreditsPerMonth ?? null,
      },
      now,
    );
  }

  /** The stored definition with the patch over it, checked as a whole (a rule may depend on a changed watch list). */
  update(current: MonitorDefinition, patch: UpdateMonitorBody, now: Date): MonitorDefinition {
    if (patch.every !== undefined && patch.cron !== undefined) throw errors.validation('Give either every or cron, not both');
    const toCron = patch.cron !== undefined || (patch.every === undefined && current.cron !== null);
    if (patch.timezone !== undefined && !toCron) throw errors.validation('timezone applies to a cron monitor only');
    const schedule =
      patch.every !== undefined
        ? { every: patch.every, cron: null, timezone: null }
        : patch.cron !== undefined
          ? { every: null, cron: patch.cron, timezone: patch.timezone ?? current.timezone ?? DEFAULT_TIMEZONE }
          : { every: current.every, cron: current.cron, timezone: patch.timezone ?? current.timezone };
    return this.#check(
      {
        name: patch.name ?? current.name,
        type: current.type,
        targets: patch.targets ?? current.targets,
        domain: patch.domain ?? current.domain,
        deliveryZip: patch.deliveryZip === undefined ? current.deliveryZip : patch.deliveryZip,
        ...schedule,
        watch: patch.watch ?? current.watch,
        rules: patch.rules ?? current.rules,
        cooldown: patch.cooldown ?? current.cooldown,
        maxCreditsPerMonth: patch.maxCreditsPerMonth === undefined ? current.maxCreditsPerMonth : patch.maxCreditsPerMonth,
      },
      now,
    );
  }

  #check(draft: Draft, now: Date): MonitorDefinition {
    const name = draft.name.trim();
    if (name === '') throw errors.validation('name must not be blank');
    this.#checkSchedule(draft, now);
    const cooldown = durationMinutes(draft.cooldown) ?? Number.POSITIVE_INFINITY;
    if (cooldown > MONITOR_LIMITS.maxCooldownMinutes) throw errors.validation(`cooldown "${draft.cooldown}" is longer than 30d`);
    // The targets, storefront and delivery location of a run are a job's: the job rules say what is valid.
    const prepared = this.#input.prepare(
      {
        type: draft.type,
        targets: draft.targets,
        config: { domain: draft.domain, ...(draft.deliveryZip !== null ? { deliveryZip: draft.deliveryZip } : {}) },
      },
      undefined,
      { configAt: '' },
    );
    const problems = ruleProblems(draft.type, draft.watch, draft.rules);
    if (problems.length > 0) throw errors.validation(problems[0] as string, problems);
    const targets = prepared.targets.map((target) => target.asin ?? target.value);
    const definition: MonitorDefinition = {
      ...draft,
      name,
      targets,
      domain: marketplaceDomainOf(draft.domain) ?? draft.domain,
      deliveryZip: draft.deliveryZip?.trim() ?? null,
      cron: draft.cron?.trim() ?? null,
    };
    const perRun = runCreditsOf(definition);
    if (definition.maxCreditsPerMonth !== null && definition.maxCreditsPerMonth < perRun) {
      throw errors.validation(
        `maxCreditsPerMonth ${definition.maxCreditsPerMonth} is less than one run: ${perRun} credits (${targets.length} ${draft.type === 'search' ? 'keywords' : 'products'})`,
      );
    }
    return definition;
  }

  #checkSchedule(draft: Draft, now: Date): void {
    if (draft.every !== null) {
      const minutes = durationMinutes(draft.every) ?? 0;
      if (minutes < MONITOR_LIMITS.minIntervalMinutes || minutes > MONITOR_LIMITS.maxIntervalMinutes) {
        throw errors.validation(
          `every "${draft.every}" is outside ${describeInterval(MONITOR_LIMITS.minIntervalMinutes)} to 7d (minutes m, hours h or days d, e.g. "15m", "6h", "1d")`,
        );
      }
      return;
    }
    try {
      validateCron(draft.cron ?? '', draft.timezone ?? DEFAULT_TIMEZONE, MONITOR_LIMITS.minIntervalMinutes, now);
    } catch (error) {
      // The schedules' wording speaks of daily-style schedules; a monitor's limit is its own.
      if (error instanceof AppError && error.message.startsWith('cron fires more often than')) {
        throw errors.validation(`cron fires more often than every ${MONITOR_LIMITS.minIntervalMinutes} minutes, the most a monitor runs`);
      }
      throw error;
    }
  }
}
