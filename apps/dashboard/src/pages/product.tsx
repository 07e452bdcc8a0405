import { type HistoryPoint, isCrawlApiError, type ProductHistoryOptions } from '@crawl/sdk';
import { useQuery } from '@tanstack/preact-query';
import { Fragment } from 'preact';
import { useMemo } from 'preact/hooks';
import { useLocation, useSearchParams } from 'wouter-preact';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { HistoryChart } from '../components/history-chart.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { when } from '../format/dates.ts';
import { rankFields, stepSeries, withValues } from '../format/history-series.ts';
import { HISTORY_WINDOWS, latestFacts, moneyFormat, productHref, type ResolutionChoice, windowQuery } from '../format/product-values.ts';
import { ProductLookup } from './product-lookup.tsx';

/** Points a page loads at most; a longer window is read downsampled. */
const MAX_POINTS = 5000;
/** Rows of the change points table. */
const TABLE_ROWS = 200;

const RESOLUTIONS: ReadonlyArray<{ id: ResolutionChoice; label: string }> = [
  { id: 'auto', label: 'Automatic' },
  { id: 'raw', label: 'Every change' },
  { id: '1h', label: 'Hourly' },
  { id: '1d', label: 'Daily' },
];

async function loadHistory(asin: string, query: ProductHistoryOptions): Promise<{ points: HistoryPoint[]; capped: boolean }> {
  const points: HistoryPoint[] = [];
  for await (const point of api.history.iterateProduct(asin, { ...query, limit: 1000 })) {
    if (points.length >= MAX_POINTS) return { points, capped: true };
    points.push(point);
  }
  return { points, capped: false };
}

/**
 * A product's history on one storefront and delivery ZIP (`?domain=&zip=`): its latest values,
 * price, best-sellers rank and rating over a window as step charts, and the change points as a
 * table. What the organization's jobs and monitors observed; nothing is crawled from here.
 */
export function ProductPage({ asin }: { asin: string }) {
  const [params, setParams] = useSearchParams();
  const [, navigate] = useLocation();
  const domain = params.get('domain') ?? '';
  const zip = params.get('zip') ?? '';
  const windowId = params.get('window') ?? '30d';
  const resolution = (params.get('resolution') ?? 'auto') as ResolutionChoice;
  const where = { ...(domain ? { domain } : {}), ...(zip ? { zip } : {}) };

  const latest = useQuery({
    queryKey: ['product-latest', asin, domain, zip],
    queryFn: () => api.history.latest(asin, where),
  });
  const history = useQuery({
    queryKey: ['product-history', asin, domain, zip, windowId, resolution],
    queryFn: () => loadHistory(asin, { ...where, ...windowQuery(windowId, resolution) }),
  });

  const points = history.data?.points;
  const charts = useMemo(() => {
    if (!points) return undefined;
    const last = points[points.length - 1];
    return {
      price: withValues(stepSeries(points, ['price', 'listPrice'])),
      ranks: withValues(stepSeries(points, rankFields(points))),
      rating: withValues(stepSeries(points, ['rating'])),
      money: moneyFormat(last?.values.currency),
    };
  }, [points]);

  const marketplace = latest.data?.subject.marketplace ?? (domain || 'amazon.com');
  const notObserved = isCrawlApiError(latest.error, 'NOT_FOUND');
  return (
    <section>
      <p class="crumbs">Products / {asin}</p>
      <PageTitle
        title={`Product ${asin}`}
        actions={
          <a href={`https://www.${marketplace}/dp/${encodeURIComponent(asin)}`} target="_blank" rel="noopener noreferrer">
            Open on {marketplace}
          </a>
        }
      >
        Product <code>{asin}</code>
      </PageTitle>
      <p class="muted">
        On {marketplace}
        {zip ? `, delivered to ${zip}` : ', no delivery ZIP set'}: the values your organization's details jobs and monitors observed.
      </p>

      <details class="card">
        <summary>Storefront, delivery ZIP and time window</summary>
        <ProductLookup
          initial={{ asin, domain, zip }}
          submitLabel="Show"
          onSubmit={(next) => navigate(`${productHref(next.asin, next)}${next.domain || next.zip ? '&' : '?'}window=${windowId}&resolution=${resolution}`)}
        />
      </details>

      <div class="card">
        <h2>Latest values</h2>
        {notObserved ? (
          <p data-testid="not-observed">
            {asin} has not been observed on {marketplace}
            {zip ? ` for delivery to ${zip}` : ' without a delivery ZIP'}. History starts with the first details job or monitor run that crawls it there.
          </p>
        ) : (
          <ErrorNote error={latest.error} />
        )}
        {latest.data ? (
          <>
            <dl class="facts" data-testid="latest-values">
              {latestFacts(latest.data.values).map((fact) => (
                <Fragment key={fact.field}>
                  <dt>{fact.label}</dt>
                  <dd>{fact.value}</dd>
                </Fragment>
              ))}
            </dl>
            <p class="muted">
              Unchanged since {when(latest.data.since)}; last checked {when(latest.data.lastSeenAt)} ({latest.data.checks} check
              {latest.data.checks === 1 ? '' : 's'} since the last change).
            </p>
          </>
        ) : null}
      </div>

      <div class="card">
        <div class="page-head">
          <h2>Over time</h2>
          <div class="row">
            <label class="inline">
              Window
              <select value={windowId} onChange={(event) => setParams({ ...currentParams(params), window: (event.currentTarget as HTMLSelectElement).value })}>
                {HISTORY_WINDOWS.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.label}
                  </option>
                ))}
              </select>
            </label>
            <label class="inline">
              Points
              <select
                value={resolution}
                onChange={(event) => setParams({ ...currentParams(params), resolution: (event.currentTarget as HTMLSelectElement).value })}
              >
                {RESOLUTIONS.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        <ErrorNote error={history.error} />
        {history.isPending ? <p aria-live="polite">Loading…</p> : null}
        {history.data?.capped ? <p class="muted">Only the first {MAX_POINTS.toLocaleString()} points are shown: choose hourly or daily points.</p> : null}
        {points && points.length === 0 ? <p>No change points in this window.</p> : null}
        {charts && points && points.length > 0 ? (
          <div class="grid2">
            <HistoryChart title="Price" series={charts.price} format={charts.money} testId="price-chart" />
            <HistoryChart title="Best-sellers rank (1 is the top)" series={charts.ranks} invert log format={rankTick} testId="rank-chart" />
            <HistoryChart title="Rating (of 5)" series={charts.rating} clamp={RATING_BOUNDS} testId="rating-chart" />
          </div>
        ) : null}
        {points && points.length > 0 ? <ChangePoints points={points} /> : null}
      </div>
    </section>
  );
}

const RATING_BOUNDS: [number, number] = [0, 5];

/** A rank on the axis and in the legend: `#1,234`. */
const rankTick = (value: number) => `#${Math.round(value).toLocaleString()}`;

function currentParams(params: URLSearchParams): Record<string, string> {
  return Object.fromEntries(params.entries());
}

/** The same data as the charts, newest first: for reading exact values and for screen readers. */
function ChangePoints({ points }: { points: readonly HistoryPoint[] }) {
  const ranks = rankFields(points);
  const rows = points.slice(-TABLE_ROWS).reverse();
  const facts = (point: HistoryPoint) => new Map(latestFacts(point.values).map((fact) => [fact.field, fact.value]));
  const columns = ['price', 'inStock', 'buyBoxSeller', 'rating', 'reviewCount', ...ranks];
  return (
    <details>
      <summary>Change points as a table ({points.length.toLocaleString()})</summary>
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Change points, newest first</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Last seen</th>
              <th scope="col">Checks</th>
              <th scope="col">Price</th>
              <th scope="col">In stock</th>
              <th scope="col">Seller</th>
              <th scope="col">Rating</th>
              <th scope="col">Reviews</th>
              {ranks.map((field) => (
                <th key={field} scope="col">
                  Rank in {field.slice('bestSellersRank:'.length)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((point) => {
              const values = facts(point);
              return (
                <tr key={point.from}>
                  <td>{when(point.from)}</td>
                  <td>{when(point.to)}</td>
                  <td>{point.checks}</td>
                  {columns.map((column) => (
                    <td key={column}>{values.get(column) ?? ''}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {points.length > rows.length ? (
        <p class="muted">
          The latest {rows.length} of {points.length.toLocaleString()} change points.
        </p>
      ) : null}
    </details>
  );
}
