import { chargesOf, type JobStatus } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { Link, useLocation, useSearchParams } from 'wouter-preact';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { Pager } from '../components/pager.tsx';
import { ProjectTabs } from '../components/project-tabs.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { when } from '../format/dates.ts';
import { JobForm } from './job-form.tsx';

const PAGE = 20;
const STATUSES: readonly JobStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];

/** A project's jobs, newest first, filtered by status and paged; and the form that creates one. */
export function ProjectJobsPage({ projectId }: { projectId: string }) {
  const [status, setStatus] = useState<JobStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  // "New job from this list" (the Lists tab) opens the form with `?list=<id>`.
  const [search, setSearch] = useSearchParams();
  const listId = search.get('list');
  const chosenList = useQuery({
    queryKey: ['target-list', listId],
    queryFn: async () => (await api.targetLists.get(listId as string, { limit: 1 })).list,
    enabled: listId !== null,
  });
  const jobs = useQuery({
    queryKey: ['jobs', projectId, { status, offset }],
    queryFn: () => api.jobs.list(projectId, { limit: PAGE, offset, ...(status ? { status } : {}) }),
    // Jobs move on their own: the list follows them while any is still open.
    refetchInterval: (query) => (query.state.data?.data.some((job) => job.status === 'queued' || job.status === 'running') ? 2_000 : false),
  });
  const create = useMutation({
    mutationFn: (body: Parameters<typeof api.jobs.create>[1]) => api.jobs.create(projectId, body),
    onSuccess: (job) => {
      void queryClient.invalidateQueries({ queryKey: ['jobs', projectId] });
      navigate(`/jobs/${job.id}`);
    },
  });

  return (
    <section>
      <ProjectTabs projectId={projectId} />
      <PageTitle title="Jobs">Jobs</PageTitle>
      <details class="card" open={jobs.data?.meta.total === 0 || listId !== null}>
        <summary>New job</summary>
        <ErrorNote error={chosenList.error} />
        <JobForm
          key={chosenList.data?.id ?? 'typed'}
          submitLabel="Start job"
          projectId={projectId}
          targetList={listId ? (chosenList.data ?? null) : null}
          onClearList={() => setSearch({})}
          busy={create.isPending}
          error={create.error}
          onSubmit={(body) => create.mutate(body)}
        />
      </details>
      <label class="inline">
        Status
        <select
          value={status}
          onChange={(event) => {
            setStatus((event.currentTarget as HTMLSelectElement).value as JobStatus | '');
            setOffset(0);
          }}
        >
          <option value="">all</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={jobs.error} />
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Jobs of this project</caption>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Targets</th>
              <th scope="col">Results</th>
              <th scope="col">Credits</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data?.data.map((job) => (
              <tr key={job.id}>
                <td>
                  <Link href={`/jobs/${job.id}`}>{job.id}</Link>
                </td>
                <td>{job.type}</td>
                <td>
                  <StatusBadge status={job.status} />
                </td>
                <td>
                  {job.targets.length}
                  <UnchargedNote count={chargesOf(job).unchargedTargets} />
                </td>
                <td>{job.resultCount}</td>
                <td>{job.creditsReserved}</td>
                <td>{when(job.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {jobs.data?.meta.total === 0 ? <p>No jobs{status ? ` with status ${status}` : ''}.</p> : null}
      <Pager offset={offset} limit={PAGE} count={jobs.data?.data.length ?? 0} total={jobs.data?.meta.total} onChange={setOffset} />
    </section>
  );
}

/** Next to a job's target count: how many of its successes were delivered without charge, if any. */
function UnchargedNote({ count }: { count: number }) {
  return count > 0 ? <span class="muted"> ({count} not charged)</span> : null;
}
