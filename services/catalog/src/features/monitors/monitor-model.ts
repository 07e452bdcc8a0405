import {
  monitorRunCredits,
  type MonitorType,
  type Monitor,
  type MonitorPausedReason,
  type MonitorRule,
  type MonitorRunError,
  type MonitorStatus,
  type TrackedField,
} from '@crawl/contracts';
import type { Document } from '@crawl/storage';

export const MONITORS_COLLECTION = 'monitors';

/** What a monitor checks and when: the part a create sets and an update may change (monitor-definition.ts). */
export interface MonitorDefinition {
  name: string;
  type: MonitorType;
  /** ASINs (details) or keywords (search), as a job's targets are normalized. */
  targets: string[];
  /** The storefront, normalized (`amazon.de`). */
  domain: string;
  deliveryZip: string | null;
  /** Exactly one of `every` and `cron` is set; `timezone` goes with `cron`. */
  every: string | null;
  cron: string | null;
  timezone: string | null;
  watch: TrackedField[];
  rules: MonitorRule[];
  cooldown: string;
  maxCreditsPerMonth: number | null;
}

/** Exactly the definition's fields of a monitor (or of a checked definition). */
export function definitionOf(source: MonitorDefinition): MonitorDefinition {
  const { name, type, targets, domain, deliveryZip, every, cron, timezone, watch, rules, cooldown, maxCreditsPerMonth } = source;
  return { name, type, targets, domain, deliveryZip, every, cron, timezone, watch, rules, cooldown, maxCreditsPerMonth };
}

/** The credits a monitor's jobs reserved in one calendar month (UTC). */
export interface MonitorUsage {
  month: string;
  credits: number;
}

export interface MonitorDoc extends Document, MonitorDefinition {
  organizationId: string;
  projectId: string;
  status: MonitorStatus;
  pausedReason: MonitorPausedReason | null;
  pausedAt: string | null;
  /** A budget pause ends by itself at the start of the next month. */
  resumesAt: string | null;
  /** Null while paused: only active monitors are due. */
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastJobId: string | null;
  lastError: MonitorRunError | null;
  lastTriggeredAt: string | null;
  usage: MonitorUsage;
  runCount: number;
  /** Scheduled runs and confirmations are created in this user's name (as schedules are). */
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** `2026-03`: the calendar month (UTC) a time falls in, as budgets count them. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** The first instant of the month after the one `at` falls in (UTC). */
export const nextMonthStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/** Credits one run of the monitor reserves (every target once). */
export const runCreditsOf = (monitor: Pick<MonitorDefinition, 'type' | 'targets'>): number => monitorRunCredits(monitor.type, monitor.targets.length);

export function toMonitorView(doc: MonitorDoc, now: Date): Monitor {
  const month = monthOf(now);
  return {
    id: doc._id,
    projectId: doc.projectId,
    organizationId: doc.organizationId,
    name: doc.name,
    type: doc.type,
    targets: doc.targets,
    domain: doc.domain,
    deliveryZip: doc.deliveryZip,
    every: doc.every,
    cron: doc.cron,
    timezone: doc.timezone,
    watch: doc.watch,
    rules: doc.rules,
    cooldown: doc.cooldown,
    maxCreditsPerMonth: doc.maxCreditsPerMonth,
    // A month with no run yet has spent nothing, whatever the stored figure of an earlier month says.
    credits: { month, used: doc.usage.month === month ? doc.usage.credits : 0, perRun: runCreditsOf(doc) },
    status: doc.status,
    pausedReason: doc.pausedReason,
    pausedAt: doc.pausedAt,
    resumesAt: doc.resumesAt,
    nextRunAt: doc.status === 'active' ? doc.nextRunAt : null,
    lastRunAt: doc.lastRunAt,
    lastJobId: doc.lastJobId,
    lastError: doc.lastError,
    lastTriggeredAt: doc.lastTriggeredAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
