import { CREDITS_PER_TARGET, MAX_AGE_LIMIT_MS, maxAgeMs, PAGE_CACHE_TYPES, type JobType } from '@crawl/contracts';

/** Whether the job form offers "Reuse pages fetched within" for this type. */
export function takesMaxAge(type: JobType): boolean {
  return PAGE_CACHE_TYPES.includes(type);
}

/**
 * The "Reuse pages fetched within" field read as `config.maxAge`: empty is no reuse; otherwise a
 * whole number of minutes, hours or days (`30m`, `6h`, `1d`) of at most 30 days, as the API checks it.
 */
export function parseMaxAge(text: string): { value?: string } | { error: string } {
  const trimmed = text.trim().toLowerCase();
  if (!trimmed) return {};
  const ms = maxAgeMs(trimmed);
  if (ms === undefined) return { error: 'Reuse pages fetched within: a whole number and m, h or d, e.g. 30m, 6h or 1d.' };
  if (ms > MAX_AGE_LIMIT_MS) return { error: `Reuse pages fetched within: at most ${MAX_AGE_LIMIT_MS / 86_400_000}d.` };
  return { value: trimmed };
}

/** How long ago a moment was, in the largest whole unit: `just now`, `12 min ago`, `3 h ago`, `2 days ago`. */
export function agoText(at: string, now: number = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(at)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** A target answered from the shared page cache, as its job page says it. */
export function cachedAtText(cachedAt: string, now: number = Date.now()): string {
  return `from cache, fetched ${agoText(cachedAt, now)}`;
}

/** The billing service's default cached prices (CACHED_CREDITS_DETAILS, CACHED_CREDITS_SEARCH; an operator may change them). */
const DEFAULT_CACHED_CREDITS: Partial<Record<JobType, number>> = { details: 1, search: 2 };

/** Under the field: what a cached target costs and how it is shown. */
export function cachedPriceNote(type: JobType): string {
  const cached = DEFAULT_CACHED_CREDITS[type] ?? CREDITS_PER_TARGET[type];
  const unit = type === 'search' ? 'results page' : 'target';
  return `A ${unit} fetched within that time is answered from the shared cache and costs less: ${cached} credit${cached === 1 ? '' : 's'} instead of ${CREDITS_PER_TARGET[type]} by default. The job page shows when it was fetched (cachedAt).`;
}
