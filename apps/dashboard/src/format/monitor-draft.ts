import {
  type CreateMonitorBody,
  fieldInWords,
  MONITOR_LIMITS,
  MONITOR_OP_FIELDS,
  MONITOR_OP_VALUES,
  MONITOR_RULE_OPS,
  MONITOR_WATCHABLE_FIELDS,
  type Monitor,
  type MonitorRule,
  type MonitorRuleOp,
  type TrackedField,
  type UpdateMonitorBody,
} from '@crawl/sdk';

/** A monitor's type: products (details) or a keyword's results (search). */
export type MonitorType = Monitor['type'];

/** A rule as the editor holds it: the value as typed. */
export interface RuleDraft {
  field: TrackedField;
  op: MonitorRuleOp;
  value: string;
  confirm: boolean;
}

export type DurationUnit = 'm' | 'h' | 'd';

/** Everything the monitor editor holds, as typed. */
export interface MonitorDraft {
  name: string;
  type: MonitorType;
  targets: string;
  domain: string;
  deliveryZip: string;
  schedule: 'every' | 'cron';
  everyAmount: string;
  everyUnit: DurationUnit;
  cron: string;
  timezone: string;
  watch: TrackedField[];
  rules: RuleDraft[];
  cooldownAmount: string;
  cooldownUnit: DurationUnit;
  maxCreditsPerMonth: string;
  startPaused: boolean;
}

/** The operations that apply to a field, in the API's order. */
export function opsForField(field: TrackedField): MonitorRuleOp[] {
  return MONITOR_RULE_OPS.filter((op) => MONITOR_OP_FIELDS[op].includes(field));
}

/** An operation as a select shows it. */
export const OP_WORDS: Readonly<Record<MonitorRuleOp, string>> = {
  changed: 'changes',
  dropsBy: 'drops by (%)',
  risesBy: 'rises by (%)',
  below: 'goes below',
  above: 'goes above',
  becomesUnavailable: 'becomes unavailable',
  becomesAvailable: 'becomes available',
  sellerChanges: 'gets another buy-box seller',
  entersTop: 'enters the top',
  leavesTop: 'leaves the top',
};

/** What the value box of an operation asks for, or undefined when it takes none. */
export function valueLabel(op: MonitorRuleOp): string | undefined {
  const kind = MONITOR_OP_VALUES[op];
  if (kind === 'percent') return 'Percent';
  if (kind === 'rank') return 'Places';
  if (kind === 'threshold') return 'Value';
  return undefined;
}

/** The rule a new row starts with: a price drop for products, entering the top 10 for a keyword's results. */
export function defaultRule(type: MonitorType): RuleDraft {
  return type === 'details'
    ? { field: 'price', op: 'dropsBy', value: '10', confirm: false }
    : { field: 'organicRank', op: 'entersTop', value: '10', confirm: false };
}

/** Another field for a rule row: the operation stays when it applies to the new field, else the field's first; the value stays when it means the same. */
export function withField(rule: RuleDraft, field: TrackedField): RuleDraft {
  const ops = opsForField(field);
  const op = ops.includes(rule.op) ? rule.op : (ops[0] as MonitorRuleOp);
  return withOp({ ...rule, field }, op);
}

/** Another operation for a rule row: the value is kept when both operations take the same kind, cleared otherwise. */
export function withOp(rule: RuleDraft, op: MonitorRuleOp): RuleDraft {
  const same = MONITOR_OP_VALUES[op] === MONITOR_OP_VALUES[rule.op];
  return { ...rule, op, value: same ? rule.value : MONITOR_OP_VALUES[op] === 'rank' ? '10' : '' };
}

/** A rule row as the API's rule, or what is wrong with its value (in words a person can act on). */
export function ruleOf(draft: RuleDraft): { rule: MonitorRule } | { error: string } {
  const kind = MONITOR_OP_VALUES[draft.op];
  const base = { field: draft.field, op: draft.op, ...(draft.confirm ? { confirm: true } : {}) };
  if (kind === undefined) return { rule: base };
  const text = draft.value.trim();
  const value = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) return { error: `Give ${kind === 'percent' ? 'a percentage' : kind === 'rank' ? 'a number of places' : 'a number'}.` };
  if (kind === 'percent') {
    const max = draft.op === 'dropsBy' ? 100 : MONITOR_LIMITS.maxPercent;
    if (value <= 0 || value > max) return { error: `Give a percentage above 0 and at most ${max}.` };
  }
  if (kind === 'rank' && (!Number.isInteger(value) || value < 1 || value > MONITOR_LIMITS.maxRank)) {
    return { error: `Give a whole number of places from 1 to ${MONITOR_LIMITS.maxRank}.` };
  }
  return { rule: { ...base, value } };
}

/** `6h` → 6 hours; anything else → the fallback. */
export function durationParts(text: string | null | undefined, fallback: { amount: string; unit: DurationUnit }): { amount: string; unit: DurationUnit } {
  const match = /^(\d+)([mhd])$/.exec(text ?? '');
  return match ? { amount: match[1] as string, unit: match[2] as DurationUnit } : fallback;
}

/** The editor's state for a new monitor of a type, or for an existing one. */
export function draftOf(monitor?: Monitor, type: MonitorType = 'details'): MonitorDraft {
  if (!monitor) {
    return {
      name: '',
      type,
      targets: '',
      domain: '',
      deliveryZip: '',
      schedule: 'every',
      everyAmount: '6',
      everyUnit: 'h',
      cron: '0 6 * * *',
      timezone: 'UTC',
      watch: [],
      rules: [defaultRule(type)],
      cooldownAmount: '1',
      cooldownUnit: 'h',
      maxCreditsPerMonth: '',
      startPaused: false,
    };
  }
  const every = durationParts(monitor.every, { amount: '6', unit: 'h' });
  const cooldown = durationParts(monitor.cooldown, { amount: '1', unit: 'h' });
  return {
    name: monitor.name,
    type: monitor.type,
    targets: monitor.targets.join('\n'),
    domain: monitor.domain,
    deliveryZip: monitor.deliveryZip ?? '',
    schedule: monitor.cron ? 'cron' : 'every',
    everyAmount: every.amount,
    everyUnit: every.unit,
    cron: monitor.cron ?? '0 6 * * *',
    timezone: monitor.timezone ?? 'UTC',
    watch: [...monitor.watch],
    rules: monitor.rules.map((rule) => ({
      field: rule.field,
      op: rule.op,
      value: rule.value === undefined ? '' : String(rule.value),
      confirm: rule.confirm === true,
    })),
    cooldownAmount: cooldown.amount,
    cooldownUnit: cooldown.unit,
    maxCreditsPerMonth: monitor.maxCreditsPerMonth === null ? '' : String(monitor.maxCreditsPerMonth),
    startPaused: monitor.status === 'paused',
  };
}

/** The targets typed one per line: trimmed, blank lines and repeats left out. */
export function targetsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}

/** The fields a monitor of a type may watch, with their words, for the checkboxes and selects. */
export function watchableFields(type: MonitorType): Array<{ field: TrackedField; label: string }> {
  return MONITOR_WATCHABLE_FIELDS[type].map((field) => ({ field, label: fieldInWords(field) }));
}

/**
 * The editor's state as the API's body, or the first thing to fix. The rules' fields are added to
 * the watched ones (a rule reads only a watched field); the API checks the rest and names what it refuses.
 */
export function bodyOf(draft: MonitorDraft): { body: CreateMonitorBody } | { error: string } {
  const name = draft.name.trim();
  if (name === '') return { error: 'Give the monitor a name.' };
  const targets = targetsOf(draft.targets);
  if (targets.length === 0) return { error: draft.type === 'details' ? 'Give at least one ASIN or product URL.' : 'Give at least one keyword.' };
  if (draft.rules.length === 0) return { error: 'Add at least one rule.' };
  const rules: MonitorRule[] = [];
  for (const [index, draftRule] of draft.rules.entries()) {
    const read = ruleOf(draftRule);
    if ('error' in read) return { error: `Rule ${index + 1}: ${read.error}` };
    rules.push(read.rule);
  }
  const watchable: readonly string[] = MONITOR_WATCHABLE_FIELDS[draft.type];
  const watch = [...new Set([...draft.watch, ...rules.map((rule) => rule.field)])].filter((field) => watchable.includes(field));
  const every = `${draft.everyAmount.trim()}${draft.everyUnit}`;
  if (draft.schedule === 'every' && !/^[1-9]\d*[mhd]$/.test(every)) return { error: 'Give how often as a whole number of minutes, hours or days.' };
  if (draft.schedule === 'cron' && draft.cron.trim() === '') return { error: 'Give a cron rule, e.g. 0 6 * * *.' };
  const cooldown = `${draft.cooldownAmount.trim() || '0'}${draft.cooldownUnit}`;
  if (!/^\d+[mhd]$/.test(cooldown)) return { error: 'Give the quiet time as a whole number of minutes, hours or days.' };
  const budget = draft.maxCreditsPerMonth.trim();
  if (budget !== '' && !/^[1-9]\d*$/.test(budget)) return { error: 'Give the monthly budget as a whole number of credits, or leave it empty.' };
  return {
    body: {
      name,
      type: draft.type,
      targets,
      domain: draft.domain.trim() || 'amazon.com',
      ...(draft.deliveryZip.trim() ? { deliveryZip: draft.deliveryZip.trim() } : {}),
      ...(draft.schedule === 'every' ? { every } : { cron: draft.cron.trim(), timezone: draft.timezone.trim() || 'UTC' }),
      watch: watch as TrackedField[],
      rules,
      cooldown,
      ...(budget ? { maxCreditsPerMonth: Number(budget) } : {}),
      ...(draft.startPaused ? { enabled: false } : {}),
    },
  };
}

/** The same as a PATCH of an existing monitor: every definition field, a removed ZIP or budget as null, the type left out (it stays). */
export function updateOf(body: CreateMonitorBody): UpdateMonitorBody {
  const { type: _type, enabled: _enabled, deliveryZip, maxCreditsPerMonth, ...rest } = body;
  return { ...rest, deliveryZip: deliveryZip ?? null, maxCreditsPerMonth: maxCreditsPerMonth ?? null };
}
