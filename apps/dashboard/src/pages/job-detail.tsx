import { changeInWords, chargesOf, coverageInWords, type ExportFormat, type JobType, recordField, ruleInWords } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { api } from '../api/client.ts';
import { useLiveJob } from '../api/use-live-job.ts';
import { Bar } from '../components/bar.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { JobDeliveries } from '../components/job-deliveries.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { duration, when } from '../format/dates.ts';
import { eventProductHref } from '../format/monitor-words.ts';
import { asinFrom, productHref } from '../format/product-values.ts';
import { JOB_TYPE_INFO } from '../format/job-types.ts';
import { cellText, columnsOf, defaultColumnsOf, KIND_COLUMNS, SORTABLE, sortRows } from '../format/result-columns.ts';
import { cachedAtText } from '../format/page-cache-words.ts';
import { chargedText, resolvedKey, targetWhy } from '../format/target-outcome.ts';

/** What a monitor's job is, as its link says it. */
const RUN_WORDS = {
  scheduled: 'a scheduled run of its monitor',
  manual: 'a run of its monitor started by hand',
  confirmation: "a re-check confirming a monitor's rule",
} as const;

/** One job, live: status, queue position, targets with reasons, progress; cancel, retry, results, export. */
export function JobDetailPage({ jobId }: { jobId: string }) {
  const { job, mode, fired, progress } = useLiveJob(jobId);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const cancel = useMutation({ mutationFn: () => api.jobs.cancel(jobId), onSuccess: (updated) => queryClient.setQueryData(['job', jobId], updated) });
  const retry = useMutation({ mutationFn: () => api.jobs.retry(jobId), onSuccess: (created) => navigate(`/jobs/${created.id}`) });
  const data = job.data;
  if (!data) return <section>{job.error ? <ErrorNote error={job.error} /> : <p>Loading…</p>}</section>;
  const open = data.status === 'queued' || data.status === 'running';
  const charges = chargesOf(data);
  const { domain, deliveryZip: zip } = data.config as { domain?: unknown; deliveryZip?: unknown };
  const marketplace = typeof domain === 'string' ? domain : null;
  const deliveryZip = typeof zip === 'string' ? zip : null;

  return (
    <section>
      <p class="crumbs">
        <Link href="/projects">Projects</Link> / <Link href={`/projects/${data.projectId}/jobs`}>Jobs</Link> / <strong>{data.id}</strong>
      </p>
      <PageTitle
        title={`Job ${data.id}`}
        actions={
          open ? (
            <button type="button" class="danger" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel job
            </button>
          ) : (
            <button type="button" class="secondary" disabled={retry.isPending} onClick={() => retry.mutate()}>
              Retry job
            </button>
          )
        }
      >
        {JOB_TYPE_INFO[data.type]?.name ?? data.type} job <StatusBadge status={data.status} />
      </PageTitle>
      <ErrorNote error={cancel.error ?? retry.error} />
      <dl class="facts">
        <dt>Created</dt>
        <dd>{when(data.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{when(data.completedAt)}</dd>
        <dt>Credits reserved</dt>
        <dd>{data.creditsReserved}</dd>
        <dt>Results</dt>
        <dd data-testid="result-count">{data.resultCount}</dd>
        <dt>Charged targets</dt>
        <dd data-testid="target-charges">
          {charges.chargedTargets} charged, {charges.unchargedTargets} delivered without charge
        </dd>
        <dt>Marketplace</dt>
        <dd>{String((data.config as { domain?: unknown }).domain ?? 'amazon.com')}</dd>
        {data.queue ? (
          <>
            <dt>Queue position</dt>
            <dd>
              {data.queue.position ?? '–'} ({data.queue.targetsAhead ?? 0} targets ahead)
            </dd>
            <dt>Estimated time left</dt>
            <dd>{data.queue.etaSeconds === null || data.queue.etaSeconds === undefined ? 'measuring…' : duration(data.queue.etaSeconds)}</dd>
          </>
        ) : null}
        {data.monitorId ? (
          <>
            <dt>Monitor</dt>
            <dd>
              <Link href={`/monitors/${data.monitorId}`}>{RUN_WORDS[data.monitorRun ?? 'scheduled']}</Link>
            </dd>
          </>
        ) : null}
        <dt>Updates</dt>
        <dd>{mode === 'stream' && open ? 'live' : mode === 'polling' && open ? 'polling every 1.5 s' : 'finished'}</dd>
      </dl>
      {progress ? (
        <Bar
          kind="progress"
          label="Progress"
          value={progress.done + progress.failed}
          max={progress.total}
          text={`${progress.done} done, ${progress.failed} failed, ${progress.pending} pending of ${progress.total}`}
        />
      ) : null}
      {fired.length > 0 ? (
        <div class="card" aria-live="polite">
          <h2>Rules fired during this run</h2>
          <ul class="rule-list" data-testid="fired-rules">
            {fired.map((event) => (
              <li key={event.id}>
                <Link href={eventProductHref(event)}>{event.subject.asin}</Link>: {changeInWords(event)}, {ruleInWords(event.rule)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h2>Targets</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Status</th>
              <th scope="col">Results</th>
              <th scope="col">Charged</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {data.targets.map((target, index) => {
              const why = targetWhy(target);
              const key = resolvedKey(target);
              return (
                <tr key={`${index}:${target.value}`}>
                  <td>
                    {target.value}
                    {data.type === 'details' && asinFrom(target.value) ? (
                      <span class="detail">
                        <Link
                          href={productHref(asinFrom(target.value) as string, { domain: marketplace, zip: deliveryZip })}
                          aria-label={`History of ${asinFrom(target.value)}`}
                        >
                          history
                        </Link>
                      </span>
                    ) : null}
                    {key ? <span class="muted detail">resolved: {key}</span> : null}
                  </td>
                  <td>
                    <StatusBadge status={target.status} />
                  </td>
                  <td>
                    {target.resultCount ?? ''}
                    {target.coverage ? (
                      <span class="muted detail" data-testid="target-coverage">
                        {coverageInWords(target.coverage)}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {chargedText(target)}
                    {target.cachedAt ? (
                      <span class="muted detail" data-testid="target-cached" title={target.cachedAt}>
                        {cachedAtText(target.cachedAt)}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {why.summary ?? ''}
                    {why.detail ? <span class="muted detail">{why.detail}</span> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {typeof (data.config as { destinationId?: unknown }).destinationId === 'string' ? <JobDeliveries jobId={jobId} finished={!open} /> : null}
      <Results jobId={jobId} type={data.type} resultCount={data.resultCount} finished={!open} />
    </section>
  );
}

const PAGE_SIZES = [10, 25, 50, 100];

function Results({ jobId, type, resultCount, finished }: { jobId: string; type: JobType; resultCount: number; finished: boolean }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState<{ key: string; direction: 'asc' | 'desc' } | null>(null);
  // Null until the user picks columns: the usual ones are shown, the rest are a tick away.
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const results = useQuery({
    queryKey: ['results', jobId, page, pageSize, resultCount],
    queryFn: () => api.jobs.resultsPage(jobId, { page, pageSize }),
    enabled: resultCount > 0,
  });
  const [exportError, setExportError] = useState<unknown>(null);
  const rows = results.data?.items ?? [];
  const columns = columnsOf(rows, KIND_COLUMNS[type]);
  const kindDefaults = defaultColumnsOf(type);
  const defaults = columns.filter((c) => kindDefaults.includes(c));
  const visible = chosen ?? new Set(defaults.length > 0 ? defaults : columns);
  const shown = columns.filter((c) => visible.has(c));
  const sorted = sort ? sortRows(rows, sort.key, sort.direction) : rows;
  const total = results.data?.pagination.total ?? resultCount;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  async function download(format: ExportFormat) {
    setExportError(null);
    try {
      const file = await api.jobs.export(jobId, { format });
      const blob = await new Response(file.stream).blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = file.fileName ?? `job-${jobId}.${format}`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setExportError(error);
    }
  }

  return (
    <>
      <div class="page-head">
        <h2>Results</h2>
        <div class="actions">
          <button type="button" class="secondary" disabled={!finished} onClick={() => download('csv')}>
            Export CSV
          </button>
          <button type="button" class="secondary" disabled={!finished} onClick={() => download('json')}>
            Export JSON
          </button>
        </div>
      </div>
      <ErrorNote error={exportError ?? results.error} />
      {resultCount === 0 ? (
        <p>No results yet.</p>
      ) : (
        <>
          <details class="columns">
            <summary>Columns</summary>
            <fieldset>
              <legend class="sr-only">Shown columns</legend>
              {columns.map((column) => (
                <label key={column} class="radio">
                  <input
                    type="checkbox"
                    checked={visible.has(column)}
                    onChange={() => {
                      const next = new Set(visible);
                      if (next.has(column)) next.delete(column);
                      else next.add(column);
                      setChosen(next);
                    }}
                  />
                  {column}
                </label>
              ))}
            </fieldset>
          </details>
          <div class="table-wrap">
            <table class="results">
              <thead>
                <tr>
                  {shown.map((column) => (
                    <th key={column} scope="col" aria-sort={sort?.key === column ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                      {SORTABLE[column] ? (
                        <button
                          type="button"
                          class="link"
                          onClick={() => setSort({ key: column, direction: sort?.key === column && sort.direction === 'asc' ? 'desc' : 'asc' })}
                        >
                          {column} {sort?.key === column ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
                        </button>
                      ) : (
                        column
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {sorted.map((row, index) => (
                  <tr key={index}>
                    {shown.map((column) => (
                      <td key={column}>{cellText(recordField(row, column))}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Result pages">
            <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <span>
              Page {page} of {pages} ({total} results)
            </span>
            <button type="button" class="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </button>
            <label class="inline">
              Per page
              <select
                value={pageSize}
                onChange={(event) => {
                  setPageSize(Number((event.currentTarget as HTMLSelectElement).value));
                  setPage(1);
                }}
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </label>
          </nav>
        </>
      )}
    </>
  );
}
