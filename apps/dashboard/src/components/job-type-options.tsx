import { CATALOG_LIMITS, type JobType } from '@crawl/contracts';
import { OFFER_CONDITIONS, type OptionsDraft, RANKED_LISTS, REVIEW_SORTS, SEARCH_SORTS } from '../format/job-options.ts';

type SetOptions = (change: Partial<OptionsDraft>) => void;

const fieldText = (event: Event) => (event.currentTarget as HTMLInputElement | HTMLSelectElement).value;

/**
 * A whole number typed into a field, kept within its bounds; undefined while the field is empty,
 * so clearing it to type another number does not put the lowest back in its place.
 */
const bounded = (text: string, min: number, max: number) => (text.trim() === '' ? undefined : Math.min(max, Math.max(min, Math.trunc(Number(text)) || min)));

/** Sets a number option unless its field is empty. */
const whole = (set: SetOptions, key: 'pages' | 'maxReviews', min: number, max: number) => (event: Event) => {
  const value = bounded(fieldText(event), min, max);
  if (value !== undefined) set({ [key]: value });
};

/** The options of the chosen job type only: the catalog refuses a key of another type. */
export function JobTypeOptions({ type, draft, set }: { type: JobType; draft: OptionsDraft; set: SetOptions }) {
  switch (type) {
    case 'search':
    case 'category':
      return <PagedOptions type={type} draft={draft} set={set} />;
    case 'reviews':
      return <ReviewOptions draft={draft} set={set} />;
    case 'offers':
      return (
        <div class="row">
          <label>
            Offer condition
            <select name="condition" value={draft.condition} onChange={(event) => set({ condition: fieldText(event) as OptionsDraft['condition'] })}>
              {OFFER_CONDITIONS.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      );
    case 'bestsellers':
      return (
        <div class="row">
          <label>
            Ranked list
            <select name="list" value={draft.list} onChange={(event) => set({ list: fieldText(event) as OptionsDraft['list'] })}>
              {RANKED_LISTS.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      );
    default:
      return null;
  }
}

function PagedOptions({ type, draft, set }: { type: 'search' | 'category'; draft: OptionsDraft; set: SetOptions }) {
  return (
    <div class="row">
      <label>
        {type === 'search' ? 'Pages per keyword' : 'Pages per category'}
        <input
          name="pages"
          type="number"
          min={1}
          max={CATALOG_LIMITS.maxSearchPages}
          value={draft.pages}
          onInput={whole(set, 'pages', 1, CATALOG_LIMITS.maxSearchPages)}
        />
      </label>
      <label>
        Sort
        <select name="sort" value={draft.searchSort} onChange={(event) => set({ searchSort: fieldText(event) as OptionsDraft['searchSort'] })}>
          {SEARCH_SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function ReviewOptions({ draft, set }: { draft: OptionsDraft; set: SetOptions }) {
  const toggleStar = (star: number) => set({ stars: draft.stars.includes(star) ? draft.stars.filter((s) => s !== star) : [...draft.stars, star] });
  return (
    <>
      <fieldset>
        <legend>Star ratings (none ticked: all)</legend>
        {[5, 4, 3, 2, 1].map((star) => (
          <label key={star} class="radio">
            <input type="checkbox" name="stars" value={star} checked={draft.stars.includes(star)} onChange={() => toggleStar(star)} />
            {star} {star === 1 ? 'star' : 'stars'}
          </label>
        ))}
      </fieldset>
      <div class="row">
        <label>
          Reviews per product, at most
          <input
            name="maxReviews"
            type="number"
            min={1}
            max={CATALOG_LIMITS.maxReviews}
            value={draft.maxReviews}
            onInput={whole(set, 'maxReviews', 1, CATALOG_LIMITS.maxReviews)}
          />
        </label>
        <label>
          Sort
          <select name="sort" value={draft.reviewSort} onChange={(event) => set({ reviewSort: fieldText(event) as OptionsDraft['reviewSort'] })}>
            {REVIEW_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Written on or after
          <input name="since" type="date" value={draft.since} onInput={(event) => set({ since: fieldText(event) })} />
        </label>
      </div>
      <label class="inline">
        <input type="checkbox" name="verifiedOnly" checked={draft.verifiedOnly} onChange={() => set({ verifiedOnly: !draft.verifiedOnly })} />
        Verified purchases only
      </label>
    </>
  );
}
