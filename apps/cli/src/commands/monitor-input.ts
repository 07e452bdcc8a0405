import {
  type CreateMonitorBody,
  MONITOR_WATCHABLE_FIELDS,
  type MonitorRule,
  type MonitorType,
  parseRule,
  RuleSyntaxError,
  type TrackedField,
} from '@crawl/sdk';
import { UsageError } from '../cli-io.ts';

/** The storefront a monitor created without `--domain` watches. */
export const DEFAULT_MONITOR_DOMAIN = 'amazon.com';

/** What `monitors create` was given, as commander hands it over. */
export interface MonitorCreateOptions {
  name: string;
  type: MonitorType;
  targets: string[];
  domain?: string;
  zip?: string;
  every?: string;
  cron?: string;
  timezone?: string;
  watch?: string[];
  rule?: string[];
  cooldown?: string;
  maxCreditsPerMonth?: string;
  paused?: boolean;
}

/** `--rule` texts as rules; a rule that does not read is a usage mistake naming the form. */
export function parseRules(texts: readonly string[] | undefined): MonitorRule[] {
  if (!texts || texts.length === 0) throw new UsageError('no rules: give --rule "FIELD OP [VALUE]" (repeatable), e.g. --rule "price dropsBy 10"');
  return texts.map((text) => {
    try {
      return parseRule(text);
    } catch (error) {
      if (error instanceof RuleSyntaxError) throw new UsageError(error.message.replace(/^rule /, '--rule '));
      throw error;
    }
  });
}

/**
 * The fields the monitor watches: those of `--watch` (repeatable or comma-separated) and every
 * rule's field, since a rule reads only a watched field. A field that a monitor of this type
 * cannot watch is a usage mistake.
 */
export function watchedFields(type: MonitorType, watch: readonly string[] | undefined, rules: readonly MonitorRule[]): TrackedField[] {
  const watchable: readonly string[] = MONITOR_WATCHABLE_FIELDS[type];
  const given = (watch ?? [])
    .flatMap((entry) => entry.split(','))
    .map((field) => field.trim())
    .filter(Boolean);
  const fields = [...given, ...rules.map((rule) => rule.field)];
  const wrong = fields.find((field) => !watchable.includes(field));
  if (wrong !== undefined) {
    const place = given.includes(wrong) ? '--watch' : '--rule';
    throw new UsageError(`${place}: ${type} monitors watch ${watchable.join(', ')}; "${wrong}" is not one of them`);
  }
  return [...new Set(fields)] as TrackedField[];
}

const DURATION = /^\d{1,6}[mhd]$/;

function duration(option: string, value: string): string {
  if (!DURATION.test(value)) throw new UsageError(`${option} is minutes, hours or days (15m, 6h, 1d), got "${value}"`);
  return value;
}

/** The create body from the options, each checked for its form (the API checks the rest and names what it refuses). */
export function createMonitorBody(options: MonitorCreateOptions): CreateMonitorBody {
  if (options.every !== undefined && options.cron !== undefined) throw new UsageError('give --every or --cron, not both');
  if (options.every === undefined && options.cron === undefined) throw new UsageError('how often? give --every (15m to 7d, e.g. 6h) or --cron "0 6 * * *"');
  if (options.timezone !== undefined && options.cron === undefined) throw new UsageError('--timezone goes with --cron');
  const rules = parseRules(options.rule);
  const watch = watchedFields(options.type, options.watch, rules);
  let maxCreditsPerMonth: number | undefined;
  if (options.maxCreditsPerMonth !== undefined) {
    if (!/^\d+$/.test(options.maxCreditsPerMonth) || Number(options.maxCreditsPerMonth) < 1) {
      throw new UsageError(`--max-credits-per-month must be a whole number of credits, got "${options.maxCreditsPerMonth}"`);
    }
    maxCreditsPerMonth = Number(options.maxCreditsPerMonth);
  }
  return {
    name: options.name,
    type: options.type,
    targets: options.targets,
    domain: options.domain ?? DEFAULT_MONITOR_DOMAIN,
    ...(options.zip ? { deliveryZip: options.zip } : {}),
    ...(options.every !== undefined ? { every: duration('--every', options.every) } : {}),
    ...(options.cron !== undefined ? { cron: options.cron } : {}),
    ...(options.timezone !== undefined ? { timezone: options.timezone } : {}),
    watch,
    rules,
    ...(options.cooldown !== undefined ? { cooldown: duration('--cooldown', options.cooldown) } : {}),
    ...(maxCreditsPerMonth !== undefined ? { maxCreditsPerMonth } : {}),
    ...(options.paused ? { enabled: false } : {}),
  };
}
