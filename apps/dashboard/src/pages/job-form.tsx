import { CATALOG_LIMITS, type JobType } from '@crawl/contracts';
import type { CreateJobBody } from '@crawl/sdk';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorNote } from '../components/error-note.tsx';
import { jobCost, targetsFromText } from '../format/job-cost.ts';

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
 * marketplace, the pages of a search and any extra config keys. The credit cost is shown as the
 * targets are typed, computed as the API will reserve it.
 */
export function JobForm(props: {
  submitLabel: string;
  busy: boolean;
  error: unknown;
  initial?: CreateJobBody;
  children?: ComponentChildren;
  onSubmit: (body: CreateJobBody, form: FormData) => void;
}) {
  const initial = props.initial;
  const [type, setType] = useState<JobType>(initial?.type ?? 'search');
  const [text, setText] = useState((initial?.targets ?? []).join('\n'));
  const [pages, setPages] = useState(Number(initial?.config?.pages ?? 1));
  const [configError, setConfigError] = useState<string | null>(null);
  const targets = targetsFromText(text);
  const cost = jobCost(type, targets, pages);
  const { domain: initialDomain, pages: _pages, ...initialExtra } = initial?.config ?? {};

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
        let extra: Record<string, unknown> = {};
        const raw = String(form.get('extra') ?? '').trim();
        if (raw) {
          try {
            extra = JSON.parse(raw) as Record<string, unknown>;
            if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new Error('not an object');
          } catch {
            setConfigError('Extra config must be a JSON object, e.g. {"lang": "en-US"}.');
            return;
          }
        }
        setConfigError(null);
        const domain = String(form.get('domain') ?? '').trim();
        const config = { ...extra, ...(domain ? { domain } : {}), ...(type === 'search' && pages > 1 ? { pages } : {}) };
        props.onSubmit({ type, targets, ...(Object.keys(config).length > 0 ? { config } : {}) }, form);
      }}
    >
      <fieldset>
        <legend>Type</legend>
        <label class="radio">
          <input type="radio" name="type" value="search" checked={type === 'search'} onChange={() => setType('search')} />
          Search (keywords)
        </label>
        <label class="radio">
          <input type="radio" name="type" value="details" checked={type === 'details'} onChange={() => setType('details')} />
          Details (ASINs or product URLs)
        </label>
      </fieldset>
      <label>
        {type === 'search' ? 'Keywords' : 'ASINs or product URLs'}, one per line
        <textarea name="targets" rows={5} required value={text} onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)} />
      </label>
      <label>
        Or read them from a file (.txt or .csv)
        <input type="file" name="file" accept=".txt,.csv,text/plain,text/csv" onChange={readFile} />
      </label>
      <div class="row">
        <label>
          Marketplace
          <input name="domain" list="marketplaces" placeholder="amazon.com" defaultValue={typeof initialDomain === 'string' ? initialDomain : ''} />
          <datalist id="marketplaces">
            {DOMAINS.map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
        </label>
        {type === 'search' ? (
          <label>
            Pages per keyword
            <input
              name="pages"
              type="number"
              min={1}
              max={CATALOG_LIMITS.maxSearchPages}
              value={pages}
              onInput={(event) => setPages(Math.max(1, Number((event.currentTarget as HTMLInputElement).value) || 1))}
            />
          </label>
        ) : null}
      </div>
      <label>
        Extra config (JSON, optional)
        <textarea name="extra" rows={2} placeholder='{"lang": "en-US"}' defaultValue={Object.keys(initialExtra).length ? JSON.stringify(initialExtra) : ''} />
      </label>
      {props.children}
      <p class="cost" aria-live="polite">
        {targets.length} target{targets.length === 1 ? '' : 's'} · costs <strong data-testid="job-cost">{cost.toLocaleString()}</strong> credits
        {targets.length > CATALOG_LIMITS.maxTargetsPerJob ? ` · at most ${CATALOG_LIMITS.maxTargetsPerJob} targets per job` : ''}
      </p>
      {configError ? (
        <p class="error" role="alert">
          {configError}
        </p>
      ) : null}
      <ErrorNote error={props.error} />
      <button type="submit" disabled={props.busy || targets.length === 0}>
        {props.submitLabel}
      </button>
    </form>
  );
}
