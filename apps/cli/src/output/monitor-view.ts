import { changeInWords, type Monitor, type MonitorEvent, ruleInWords } from '@crawl/sdk';
import type { Colors } from './output.ts';
import { formatTime } from './format.ts';
import { fields, table } from './table.ts';

/** `every 6h`, `0 6 * * * (Europe/Berlin)`. */
export function scheduleText(monitor: Pick<Monitor, 'every' | 'cron' | 'timezone'>): string {
  if (monitor.every) return `every ${monitor.every}`;
  return `${monitor.cron ?? '?'} (${monitor.timezone ?? 'UTC'})`;
}

/** `active`, `paused`, `paused (budget, resumes 2026-04-01 02:00)`. */
export function statusText(monitor: Pick<Monitor, 'status' | 'pausedReason' | 'resumesAt'>, c: Colors): string {
  if (monitor.status === 'active') return c.green('active');
  if (monitor.pausedReason === 'budget_exhausted') return c.yellow(`paused (monthly budget used up, resumes ${formatTime(monitor.resumesAt)})`);
  return c.yellow('paused');
}

/** `12 of 2000 this month (4 per run)`, or without a budget `12 this month (4 per run)`. */
export function creditsText(monitor: Pick<Monitor, 'credits' | 'maxCreditsPerMonth'>): string {
  const { used, perRun } = monitor.credits;
  return `${used}${monitor.maxCreditsPerMonth === null ? '' : ` of ${monitor.maxCreditsPerMonth}`} this month (${perRun} per run)`;
}

export function monitorsTable(monitors: readonly Monitor[], c: Colors): string {
  return table(
    ['ID', 'NAME', 'TYPE', 'TARGETS', 'SCHEDULE', 'STATUS', 'NEXT RUN', 'LAST FIRED', 'CREDITS'],
    monitors.map((m) => [
      m.id,
      m.name,
      m.type,
      m.targets.length,
      scheduleText(m),
      statusText(m, c),
      formatTime(m.nextRunAt),
      formatTime(m.lastTriggeredAt),
      `${m.credits.used}${m.maxCreditsPerMonth === null ? '' : `/${m.maxCreditsPerMonth}`}`,
    ]),
  );
}

/** A monitor with its rules in words and what it last did. */
export function describeMonitor(m: Monitor, c: Colors): string {
  const targets = m.targets.length <= 5 ? m.targets.join(', ') : `${m.targets.slice(0, 5).join(', ')} and ${m.targets.length - 5} more`;
  const summary = fields([
    ['id', m.id],
    ['name', m.name],
    ['project', m.projectId],
    ['type', m.type],
    ['targets', `${m.targets.length}: ${targets}`],
    ['storefront', `${m.domain}${m.deliveryZip ? `, delivered to ${m.deliveryZip}` : ''}`],
    ['schedule', scheduleText(m)],
    ['status', statusText(m, c)],
    ['watch', m.watch.join(', ')],
    ['cooldown', m.cooldown],
    ['credits', creditsText(m)],
    ['next run', formatTime(m.nextRunAt)],
    ['last run', m.lastRunAt ? `${formatTime(m.lastRunAt)}${m.lastJobId ? ` (job ${m.lastJobId})` : ''}` : '-'],
    ['last fired', formatTime(m.lastTriggeredAt)],
    ['last error', m.lastError ? c.red(`${m.lastError.message} (${m.lastError.code}, ${formatTime(m.lastError.at)})`) : undefined],
  ]);
  const rules = m.rules.map((rule, i) => `  ${i + 1}. ${ruleInWords(rule)}`).join('\n');
  return `${summary}\n\nRules:\n${rules}`;
}

/** Where a change was seen: the ASIN, and the keyword for a search monitor's product. */
export function eventSubject(event: MonitorEvent): string {
  return event.subject.kind === 'rank' ? `${event.subject.asin} for "${event.subject.keyword}"` : event.subject.asin;
}

export function eventsTable(events: readonly MonitorEvent[]): string {
  return table(
    ['WHEN', 'PRODUCT', 'CHANGE', 'RULE', 'JOB'],
    events.map((e) => [
      formatTime(e.observedAt),
      eventSubject(e),
      changeInWords(e),
      `${ruleInWords(e.rule)}${e.confirmedBy ? ' (confirmed)' : ''}`,
      e.confirmedBy?.jobId ?? e.jobId,
    ]),
  );
}
