import { CATALOG_LIMITS, JOB_TYPES, type JobType, type TargetList } from '@crawl/contracts';
import type { CreateJobBody } from '@crawl/sdk';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { DestinationPicker } from '../components/destination-picker.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { JobEstimatePanel } from '../components/job-estimate.tsx';
import { JobTypeOptions } from '../components/job-type-options.tsx';
import { BILLED_PER_PAGE_FETCHED, jobCost, targetsFromText } from '../format/job-cost.ts';
import { OPTION_KEYS, optionsConfig, optionsDraftOf, type OptionsDraft } from '../format/job-options.ts';
import { parseMaxCredits } from '../format/job-estimate-words.ts';
import { JOB_TYPE_INFO } from '../format/job-types.ts';
import { cachedPriceNote, parseMaxAge, takesMaxAge } from '../format/page-cache-words.ts';
import { listChoiceText, listJobCost } from '../format/target-list-words.ts';

/** The storefronts offered in forms (any supported marketplace may be typed). */
export const DOMAINS = [
  'amazon.com',
  'amazon.co.uk',
  'amazon.de',
  'amazon.fr',
  'amazon.it',
  'amazon.es',
  'amazon.ca',
  'amazon.co.jp',
  'amazon.in',
  'amazon.com.au',
];

/**
 * What a job crawls: its type, the targets (pasted one per line or read from a text file), the
 * marketplace, the chosen type's options and any extra config keys. The credit cost is shown as
 * the targets are typed, computed as the API will reserve it (for reviews and offers the most
 * the job is charged); with a project, the server's estimate (balance, monthly limits, queue) is
 * asked as typing settles, and a cap ("Spend at most") and a destination can be set.
 */
export function JobForm(props: {
  submitLabel: string;
  busy: boolean;
  error: unknown;
  /** The project the job is for: enables the server estimate and the destination picker. */
  projectId?: string;
  initial?: CreateJobBody;
  /** A target list the job takes instead of typed targets (`targetListId`); the type is the list's. */
  targetList?: TargetList | null;
  /** Drops the list and goes back to typed targets. */
  onClearList?: () => void;
  children?: ComponentChildren;
  onSubmit: (body: CreateJobBody, form: FormData) => void;
}) {
  const initial = props.initial;
  const list = props.targetList ?? null;
  const [chosenType, setType] = useState<JobType>(initial?.type ?? 'search');
  // A list was checked against its type's rules: a job over it has that type.
  const type = list?.type ?? chosenType;
  const [text, setText] = useState((initial?.targets ?? []).join('\n'));
  const [options, setOptions] = useState<OptionsDraft>(() => optionsDraftOf(initial?.config));
  const [configError, setConfigError] = useState<string | null>(null);
  const targets = targetsFromText(text);
  const typeConfig = optionsConfig(type, options);
  const targetCount = list ? list.counts.accepted : targets.length;
  const cost = list ? listJobCost(type, list, typeConfig) : jobCost(type, targets, typeConfig);
  const atMost = BILLED_PER_PAGE_FETCHED.has(type);
  const { domain: initialDomain, destinationId: initialDestination, maxAge: initialMaxAge, ...initialRest } = initial?.config ?? {};
  const initialExtra = Object.fromEntries(Object.entries(initialRest).filter(([key]) => !OPTION_KEYS.includes(key)));
  const [domain, setDomain] = useState(typeof initialDomain === 'string' ? initialDomain : '');
  const [extraText, setExtraText] = useState(Object.keys(initialExtra).length ? JSON.stringify(initialExtra) : '');
  const [maxCreditsText, setMaxCreditsText] = useState(initial?.maxCredits ? String(initial.maxCredits) : '');
  const [destinationId, setDestinationId] = useState(typeof initialDestination === 'string' ? initialDestination : '');
  const maxCredits = parseMaxCredits(maxCreditsText);
  const [maxAgeText, setMaxAgeText] = useState(typeof initialMaxAge === 'string' ? initialMaxAge : '');
  const maxAge = takesMaxAge(type) ? parseMaxAge(maxAgeText) : {};

  /** The create body the form holds now, or why it holds none. */
  function bodyNow(): { body: CreateJobBody } | { error: string } {
    let extra: Record<string, unknown> = {};
    const raw = extraText.trim();
    if (raw) {
      try {
        extra = JSON.parse(raw) as Record<string, unknown>;
        if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new Error('not an object');
      } catch {
        return { error: 'Extra config must be a JSON object, e.g. {"lang": "en-US"}.' };
      }
    }
    if ('error' in maxCredits) return { error: maxCredits.error };
    if ('error' in maxAge) return { error: maxAge.error };
    const trimmedDomain = domain.trim();
    const config = {
      ...extra,
      ...(trimmedDomain ? { domain: trimmedDomain } : {}),
      ...(destinationId ? { destinationId } : {}),
      ...(maxAge.value ? { maxAge: maxAge.value } : {}),
      ...typeConfig,
    };
    return {
      body: {
        type,
        ...(list ? { targetListId: list.id } : { targets }),
        ...(Object.keys(config).length > 0 ? { config } : {}),
        ...(maxCredits.value !== undefined ? { maxCredits: maxCredits.value } : {}),
      },
    };
  }
  const live = bodyNow();

  async function readFile(event: Event) {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    const content = await file.text();
    // A CSV export or a plain list: the first column of each line.
    setText(
      content
        .split(/\r?\n/)
        .map((line) => line.split(',')[0]!.replace(/^"|"$/g, ''))
        .join('\n'),
    );
  }

  return (
    <form
      class="job-form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget as HTMLFormElement);
        if ('error' in live) {
          setConfigError(live.error);
          return;
        }
        setConfigError(null);
        props.onSubmit(live.body, form);
      }}
    >
      <fieldset class="type-choice">
        <legend>Type</legend>
        {JOB_TYPES.map((each) => (
          <label key={each} class="radio">
            <input type="radio" name="type" value={each} checked={type === each} disabled={list !== null && each !== type} onChange={() => setType(each)} />
            <span>
              <strong>{JOB_TYPE_INFO[each].name}</strong> <span class="muted">{JOB_TYPE_INFO[each].fetches}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {list ? (
        <div class="chosen-list">
          <p>
            Targets from the list <strong data-testid="job-list">{listChoiceText(list)}</strong>
          </p>
          {props.onClearList ? (
            <button type="button" class="secondary" onClick={props.onClearList}>
              Type targets instead
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <label>
            {JOB_TYPE_INFO[type].targets}, one per line
            <textarea name="targets" rows={5} required value={text} onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)} />
          </label>
          <label>
            Or read them from a file (.txt or .csv)
            <input type="file" name="file" accept=".txt,.csv,text/plain,text/csv" onChange={readFile} />
          </label>
        </>
      )}
      <div class="row">
        <label>
          Marketplace
          <input
            name="domain"
            list="marketplaces"
            placeholder="amazon.com"
            value={domain}
            onInput={(event) => setDomain((event.currentTarget as HTMLInputElement).value)}
          />
          <datalist id="marketplaces">
            {DOMAINS.map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
        </label>
      </div>
      <JobTypeOptions type={type} draft={options} set={(change) => setOptions({ ...options, ...change })} />
      {takesMaxAge(type) ? (
        <label>
          Reuse pages fetched within (optional)
          <input
            name="maxAge"
            placeholder="e.g. 30m, 6h, 1d"
            value={maxAgeText}
            aria-describedby="max-age-note"
            onInput={(event) => setMaxAgeText((event.currentTarget as HTMLInputElement).value)}
          />
          <span id="max-age-note" class="muted">
            {'error' in maxAge ? maxAge.error : cachedPriceNote(type)}
          </span>
        </label>
      ) : null}
      <label>
        Extra config (JSON, optional)
        <textarea
          name="extra"
          rows={2}
          placeholder='{"lang": "en-US"}'
          value={extraText}
          onInput={(event) => setExtraText((event.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="row">
        <label>
          Spend at most (credits, optional)
          <input
            name="maxCredits"
            inputMode="numeric"
            placeholder="no cap"
            value={maxCreditsText}
            aria-describedby="max-credits-note"
            onInput={(event) => setMaxCreditsText((event.currentTarget as HTMLInputElement).value)}
          />
          <span id="max-credits-note" class="muted">
            A job that would reserve more is refused.
          </span>
        </label>
        {props.projectId ? <DestinationPicker projectId={props.projectId} value={destinationId} onChange={setDestinationId} /> : null}
      </div>
      {props.children}
      <p class="cost" aria-live="polite">
        {targetCount.toLocaleString()} target{targetCount === 1 ? '' : 's'} · costs {atMost ? 'at most ' : ''}
        <strong data-testid="job-cost">{cost.toLocaleString()}</strong> credits{atMost ? ` (1 a page that yields ${type}, never more)` : ''}
        {!list && targets.length > CATALOG_LIMITS.maxTargetsPerJob ? ` · at most ${CATALOG_LIMITS.maxTargetsPerJob} targets per job` : ''}
      </p>
      {props.projectId ? <JobEstimatePanel projectId={props.projectId} body={'body' in live && targetCount > 0 ? live.body : null} /> : null}
      {configError ? (
        <p class="error" role="alert">
          {configError}
        </p>
      ) : null}
      <ErrorNote error={props.error} />
      <button type="submit" disabled={props.busy || targetCount === 0}>
        {props.submitLabel}
      </button>
    </form>
  );
}
