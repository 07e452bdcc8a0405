import {
  MONITOR_LIMITS,
  MONITOR_OP_FIELDS,
  MONITOR_OP_VALUES,
  MONITOR_RULE_OPS,
  type MonitorRule,
  type MonitorRuleOp,
  PRODUCT_TRACKED_FIELDS,
  RANK_TRACKED_FIELDS,
  type TrackedField,
} from '@crawl/contracts';

/** A rule written as text that does not read as one; the message says why and shows the form. */
export class RuleSyntaxError extends Error {
  override readonly name = 'RuleSyntaxError';
}

export const RULE_TEXT_FORM = 'FIELD OP [VALUE] [confirm], e.g. "price dropsBy 10", "inStock becomesUnavailable", "organicRank entersTop 10 confirm"';

const TRACKED: readonly TrackedField[] = [...PRODUCT_TRACKED_FIELDS, ...RANK_TRACKED_FIELDS];
/** Case, dashes and underscores do not matter: `drops-by`, `DROPSBY` and `dropsBy` are one operation. */
const squash = (word: string) => word.replace(/[-_]/g, '').toLowerCase();
const opOf = (word: string): MonitorRuleOp | undefined => MONITOR_RULE_OPS.find((op) => squash(op) === squash(word));
const fieldOf = (word: string): TrackedField | undefined => TRACKED.find((field) => squash(field) === squash(word));

const VALUE_WORDS = { percent: 'a percentage above 0', threshold: 'a threshold (a number)', rank: `a rank from 1 to ${MONITOR_LIMITS.maxRank}` } as const;

/**
 * A rule from its text form, `FIELD OP [VALUE] [confirm]`: "price dropsBy 10" (or "10%"),
 * "inStock becomesUnavailable", "organicRank entersTop 10 confirm". The field may be left out
 * where the operation reads only one (`becomesUnavailable`, `sellerChanges`, `entersTop 10`).
 * It is checked as the API checks a rule: the operation fits the field, a value is given exactly
 * where one is taken and lies in its range.
 * @throws RuleSyntaxError saying what is wrong and showing the form.
 */
export function parseRule(text: string): MonitorRule {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const fail = (why: string): never => {
    throw new RuleSyntaxError(`rule "${text.trim()}": ${why}; write ${RULE_TEXT_FORM}`);
  };
  if (words.length === 0) fail('it is empty');
  const confirm = words.length > 1 && squash(words[words.length - 1] as string) === 'confirm';
  if (confirm) words.pop();

  let field: TrackedField | undefined;
  let op = opOf(words[0] as string);
  if (op) {
    const fields = MONITOR_OP_FIELDS[op];
    if (fields.length !== 1) fail(`say which field ${op} reads (${fields.slice(0, 6).join(', ')}${fields.length > 6 ? ', …' : ''})`);
    field = fields[0];
    words.shift();
  } else {
    field = fieldOf(words[0] as string);
    if (!field) fail(`"${words[0]}" is not a tracked field (${TRACKED.join(', ')})`);
    words.shift();
    if (words.length === 0) fail(`an operation must follow ${field} (${MONITOR_RULE_OPS.join(', ')})`);
    op = opOf(words[0] as string);
    if (!op) fail(`"${words[0]}" is not an operation (${MONITOR_RULE_OPS.join(', ')})`);
    words.shift();
  }
  const rule = { field, op } as MonitorRule;
  if (!MONITOR_OP_FIELDS[rule.op].includes(rule.field))
    fail(`${rule.op} does not apply to ${rule.field}; it applies to ${MONITOR_OP_FIELDS[rule.op].join(', ')}`);

  const kind = MONITOR_OP_VALUES[rule.op];
  if (words.length > 1) fail(`"${words.slice(1).join(' ')}" is left over`);
  const raw = words[0];
  if (kind === undefined) {
    if (raw !== undefined) fail(`${rule.op} takes no value, got "${raw}"`);
  } else {
    if (raw === undefined) fail(`${rule.op} needs ${VALUE_WORDS[kind]}`);
    if ((raw as string).endsWith('%') && kind !== 'percent') fail(`${rule.op} takes ${VALUE_WORDS[kind]}, not a percentage`);
    const number = /^-?\d+(\.\d+)?%?$/.test(raw as string) ? Number.parseFloat(raw as string) : Number.NaN;
    if (Number.isNaN(number)) fail(`${rule.op} needs ${VALUE_WORDS[kind]}, got "${raw}"`);
    if (kind === 'percent') {
      const max = rule.op === 'dropsBy' ? 100 : MONITOR_LIMITS.maxPercent;
      if (number <= 0 || number > max) fail(`${rule.op} needs a percentage above 0 and at most ${max}, got ${number}`);
    }
    if (kind === 'rank' && (!Number.isInteger(number) || number < 1 || number > MONITOR_LIMITS.maxRank)) {
      fail(`${rule.op} needs a whole rank from 1 to ${MONITOR_LIMITS.maxRank}, got ${raw}`);
    }
    rule.value = number;
  }
  if (confirm) rule.confirm = true;
  return rule;
}

/** A rule in its text form, as `parseRule` reads it back: "price dropsBy 10 confirm". */
export function ruleText(rule: MonitorRule): string {
  return [rule.field, rule.op, ...(rule.value === undefined ? [] : [String(rule.value)]), ...(rule.confirm ? ['confirm'] : [])].join(' ');
}
