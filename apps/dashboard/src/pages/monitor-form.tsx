import { type CreateMonitorBody, MONITOR_LIMITS, type Monitor, monitorRunCredits, ruleInWords, type TrackedField } from '@crawl/sdk';
import { useState } from 'preact/hooks';
import { ErrorNote } from '../components/error-note.tsx';
import { cronInWords } from '../format/cron-words.ts';
import {
  bodyOf,
  defaultRule,
  type DurationUnit,
  draftOf,
  type MonitorDraft,
  type MonitorType,
  OP_WORDS,
  opsForField,
  type RuleDraft,
  ruleOf,
  targetsOf,
  valueLabel,
  watchableFields,
  withField,
  withOp,
} from '../format/monitor-draft.ts';
import { DOMAINS } from './job-form.tsx';

const UNITS: ReadonlyArray<{ unit: DurationUnit; label: string }> = [
  { unit: 'm', label: 'minutes' },
  { unit: 'h', label: 'hours' },
  { unit: 'd', label: 'days' },
];

const inputValue = (event: Event) => (event.currentTarget as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement).value;

/**
 * Creates or edits a monitor: targets, storefront, schedule, watched fields, rules built with
 * selects and read back in words, quiet time and monthly budget. The API stays the judge; its
 * refusals are shown as it words them.
 */
export function MonitorForm(props: {
  initial?: Monitor;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (body: CreateMonitorBody) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<MonitorDraft>(() => draftOf(props.initial));
  const [problem, setProblem] = useState<string | null>(null);
  const set = (patch: Partial<MonitorDraft>) => setDraft((before) => ({ ...before, ...patch }));
  const setRule = (index: number, rule: RuleDraft) => setDraft((before) => ({ ...before, rules: before.rules.map((r, i) => (i === index ? rule : r)) }));
  const editing = props.initial !== undefined;
  const id = props.initial?.id ?? 'new';
  const targets = targetsOf(draft.targets);
  const perRun = monitorRunCredits(draft.type, targets.length);
  const cron = draft.schedule === 'cron' ? cronInWords(draft.cron, draft.timezone || 'UTC') : undefined;
  const ruleFields = new Set(draft.rules.map((rule) => rule.field));

  return (
    <form
      class="monitor-form"
      onSubmit={(event) => {
        event.preventDefault();
        const read = bodyOf(draft);
        if ('error' in read) {
          setProblem(read.error);
          return;
        }
        setProblem(null);
        props.onSubmit(read.body);
      }}
    >
      <label>
        Name
        <input name="name" required maxLength={MONITOR_LIMITS.nameMaxLength} value={draft.name} onInput={(e) => set({ name: inputValue(e) })} />
      </label>
      <fieldset>
        <legend>What it watches</legend>
        {(['details', 'search'] as const).map((type) => (
          <label key={type} class="radio">
            <input
              type="radio"
              name={`type-${id}`}
              value={type}
              checked={draft.type === type}
              disabled={editing}
              onChange={() => set({ type, watch: [], rules: [defaultRule(type)] })}
            />
            {type === 'details' ? 'Products (ASINs or product URLs)' : "A keyword's search results"}
          </label>
        ))}
        {editing ? <p class="muted">The type of a monitor stays as it was created.</p> : null}
      </fieldset>
      <label>
        {draft.type === 'details' ? 'ASINs or product URLs' : 'Keywords'}, one per line
        <textarea name="targets" rows={4} required value={draft.targets} onInput={(e) => set({ targets: inputValue(e) })} />
      </label>
      <div class="row">
        <label>
          Storefront
          <input
            name="domain"
            list={`monitor-marketplaces-${id}`}
            placeholder="amazon.com"
            value={draft.domain}
            onInput={(e) => set({ domain: inputValue(e) })}
          />
          <datalist id={`monitor-marketplaces-${id}`}>
            {DOMAINS.map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
        </label>
        <label>
          Delivery ZIP (optional)
          <input name="deliveryZip" maxLength={10} value={draft.deliveryZip} onInput={(e) => set({ deliveryZip: inputValue(e) })} />
        </label>
      </div>

      <fieldset>
        <legend>How often</legend>
        <label class="radio">
          <input type="radio" name={`schedule-${id}`} checked={draft.schedule === 'every'} onChange={() => set({ schedule: 'every' })} />
          At an interval
        </label>
        <label class="radio">
          <input type="radio" name={`schedule-${id}`} checked={draft.schedule === 'cron'} onChange={() => set({ schedule: 'cron' })} />
          On a cron rule
        </label>
        {draft.schedule === 'every' ? (
          <div class="row">
            <label>
              Every
              <input type="number" min={1} name="everyAmount" value={draft.everyAmount} onInput={(e) => set({ everyAmount: inputValue(e) })} />
            </label>
            <UnitSelect label="Unit" value={draft.everyUnit} onChange={(everyUnit) => set({ everyUnit })} />
          </div>
        ) : (
          <>
            <div class="row">
              <label>
                Cron rule
                <input name="cron" value={draft.cron} onInput={(e) => set({ cron: inputValue(e) })} aria-describedby={`cron-words-${id}`} />
              </label>
              <label>
                Time zone
                <input name="timezone" value={draft.timezone} onInput={(e) => set({ timezone: inputValue(e) })} />
              </label>
            </div>
            <p id={`cron-words-${id}`} aria-live="polite" class={cron && 'error' in cron ? 'error' : 'muted'}>
              {cron ? ('words' in cron ? cron.words : `Not a cron rule: ${cron.error}`) : ''}
            </p>
          </>
        )}
        <p class="muted">
          From {MONITOR_LIMITS.minIntervalMinutes} minutes to 7 days apart. Each run is a job over every target: {perRun.toLocaleString()} credits for{' '}
          {targets.length} target{targets.length === 1 ? '' : 's'}.
        </p>
      </fieldset>

      <fieldset>
        <legend>Rules: when a change fires an event</legend>
        {draft.rules.map((rule, index) => (
          <RuleRow
            key={index}
            index={index}
            id={id}
            type={draft.type}
            rule={rule}
            onChange={(next) => setRule(index, next)}
            onRemove={draft.rules.length > 1 ? () => set({ rules: draft.rules.filter((_, i) => i !== index) }) : undefined}
          />
        ))}
        {draft.rules.length < MONITOR_LIMITS.maxRules ? (
          <button type="button" class="secondary" onClick={() => set({ rules: [...draft.rules, defaultRule(draft.type)] })}>
            Add rule
          </button>
        ) : null}
      </fieldset>

      <fieldset>
        <legend>Also keep the history of</legend>
        <div class="checks">
          {watchableFields(draft.type).map(({ field, label }) => (
            <label key={field} class="radio">
              <input
                type="checkbox"
                checked={draft.watch.includes(field) || ruleFields.has(field)}
                disabled={ruleFields.has(field)}
                onChange={(e) => {
                  const on = (e.currentTarget as HTMLInputElement).checked;
                  set({ watch: on ? [...draft.watch, field] : draft.watch.filter((f: TrackedField) => f !== field) });
                }}
              />
              {label}
            </label>
          ))}
        </div>
        <p class="muted">The fields the rules read are always watched.</p>
      </fieldset>

      <div class="row">
        <label>
          Quiet time after a rule fired for a target
          <input type="number" min={0} name="cooldownAmount" value={draft.cooldownAmount} onInput={(e) => set({ cooldownAmount: inputValue(e) })} />
        </label>
        <UnitSelect label="Quiet time unit" value={draft.cooldownUnit} onChange={(cooldownUnit) => set({ cooldownUnit })} />
        <label>
          Monthly budget in credits (optional)
          <input
            type="number"
            min={1}
            name="maxCreditsPerMonth"
            value={draft.maxCreditsPerMonth}
            onInput={(e) => set({ maxCreditsPerMonth: inputValue(e) })}
            aria-describedby={`budget-note-${id}`}
          />
        </label>
      </div>
      <p id={`budget-note-${id}`} class="muted">
        A run that would pass the budget pauses the monitor until the next month.
      </p>
      {editing ? null : (
        <label class="radio">
          <input type="checkbox" checked={draft.startPaused} onChange={(e) => set({ startPaused: (e.currentTarget as HTMLInputElement).checked })} />
          Create it paused
        </label>
      )}
      {problem ? (
        <p class="error" role="alert">
          {problem}
        </p>
      ) : null}
      <ErrorNote error={props.error} />
      <div class="actions">
        <button type="submit" disabled={props.busy}>
          {props.submitLabel}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function UnitSelect({ label, value, onChange }: { label: string; value: DurationUnit; onChange: (unit: DurationUnit) => void }) {
  return (
    <label>
      <span class="sr-only">{label}</span>
      <span aria-hidden="true">&nbsp;</span>
      <select value={value} onChange={(e) => onChange(inputValue(e) as DurationUnit)}>
        {UNITS.map(({ unit, label: words }) => (
          <option key={unit} value={unit}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One rule: field, operation, value where it takes one, and "confirm first"; read back in words as it is built. */
function RuleRow(props: {
  index: number;
  id: string;
  type: MonitorType;
  rule: RuleDraft;
  onChange: (rule: RuleDraft) => void;
  onRemove: (() => void) | undefined;
}) {
  const { rule, index } = props;
  const asked = valueLabel(rule.op);
  const read = ruleOf(rule);
  const wordsId = `rule-words-${props.id}-${index}`;
  return (
    <fieldset class="rule-row" data-testid="rule-row">
      <legend>Rule {index + 1}</legend>
      <div class="row">
        <label>
          Field
          <select value={rule.field} onChange={(e) => props.onChange(withField(rule, inputValue(e) as TrackedField))} aria-describedby={wordsId}>
            {watchableFields(props.type)
              .filter(({ field }) => opsForField(field).length > 0)
              .map(({ field, label }) => (
                <option key={field} value={field}>
                  {label}
                </option>
              ))}
          </select>
        </label>
        <label>
          Operation
          <select value={rule.op} onChange={(e) => props.onChange(withOp(rule, inputValue(e) as RuleDraft['op']))} aria-describedby={wordsId}>
            {opsForField(rule.field).map((op) => (
              <option key={op} value={op}>
                {OP_WORDS[op]}
              </option>
            ))}
          </select>
        </label>
        {asked ? (
          <label>
            {asked}
            <input
              type="number"
              step="any"
              required
              value={rule.value}
              onInput={(e) => props.onChange({ ...rule, value: inputValue(e) })}
              aria-describedby={wordsId}
            />
          </label>
        ) : null}
      </div>
      <div class="actions">
        <label class="radio">
          <input type="checkbox" checked={rule.confirm} onChange={(e) => props.onChange({ ...rule, confirm: (e.currentTarget as HTMLInputElement).checked })} />
          Crawl the target once more to confirm before it fires
        </label>
        {props.onRemove ? (
          <button type="button" class="link" onClick={props.onRemove} aria-label={`Remove rule ${index + 1}`}>
            Remove
          </button>
        ) : null}
      </div>
      <p id={wordsId} aria-live="polite" class={'error' in read ? 'error' : 'rule-words'} data-testid="rule-words">
        {'error' in read ? read.error : `Fires ${ruleInWords(read.rule)}.`}
      </p>
    </fieldset>
  );
}
