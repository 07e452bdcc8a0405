import { changeInWords, type CreateMonitorBody, fieldInWords, type Monitor, ruleInWords } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { MonitorActions } from '../components/monitor-actions.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { Pager } from '../components/pager.tsx';
import { ProjectTabs } from '../components/project-tabs.tsx';
import { when } from '../format/dates.ts';
import { updateOf } from '../format/monitor-draft.ts';
import { creditsInWords, eventProductHref, scheduleInWords, statusInWords } from '../format/monitor-words.ts';
import { MonitorForm } from './monitor-form.tsx';

const PAGE = 20;
/** New events come with runs: the feed looks again this often while the page is open. */
const REFRESH_MS = 30_000;

/** One monitor: its definition in words, status and spend, its actions and editor, and the events its rules fired (newest first, paged). */
export function MonitorDetailPage({ monitorId }: { monitorId: string }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const monitor = useQuery({ queryKey: ['monitor', monitorId], queryFn: () => api.monitors.get(monitorId), refetchInterval: REFRESH_MS });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['monitor', monitorId] });
    void queryClient.invalidateQueries({ queryKey: ['monitor-events', monitorId] });
    void queryClient.invalidateQueries({ queryKey: ['monitors'] });
  };
  const update = useMutation({
    mutationFn: (body: CreateMonitorBody) => api.monitors.update(monitorId, updateOf(body)),
    onSuccess: (updated) => {
      queryClient.setQueryData(['monitor', monitorId], updated);
      setEditing(false);
      refresh();
    },
  });
  const data = monitor.data;
  if (!data) return <section>{monitor.error ? <ErrorNote error={monitor.error} /> : <p>Loading…</p>}</section>;

  return (
    <section>
      <ProjectTabs projectId={data.projectId} />
      <PageTitle title={`Monitor ${data.name}`}>
        {data.name} <span class={`status status-${data.status}`}>{statusInWords(data)}</span>
      </PageTitle>
      <MonitorActions monitor={data} onChanged={refresh} onDeleted={() => navigate(`/projects/${data.projectId}/monitors`)} />
      <div class="grid2">
        <div class="card">
          <h2>What it does</h2>
          <p>
            {scheduleInWords(data)}, it crawls {data.targets.length} {data.type === 'details' ? 'product' : 'keyword'}
            {data.targets.length === 1 ? '' : 's'} on {data.domain}
            {data.deliveryZip ? `, delivered to ${data.deliveryZip}` : ''}, and fires an event:
          </p>
          <ul class="rule-list" data-testid="monitor-rules">
            {data.rules.map((rule) => (
              <li key={`${rule.field}-${rule.op}-${rule.value ?? ''}`}>{ruleInWords(rule)}</li>
            ))}
          </ul>
          <p class="muted">
            A rule stays quiet for {data.cooldown} after it fired for a target. Watched: {data.watch.map(fieldInWords).join(', ')}.
          </p>
          <details>
            <summary>Targets ({data.targets.length})</summary>
            <ul class="target-list">
              {data.targets.map((target) => (
                <li key={target}>
                  {data.type === 'details' ? (
                    <Link href={eventProductHref({ subject: { kind: 'product', marketplace: data.domain, asin: target, zip: data.deliveryZip } })}>
                      {target}
                    </Link>
                  ) : (
                    target
                  )}
                </li>
              ))}
            </ul>
          </details>
        </div>
        <div class="card">
          <h2>Runs and credits</h2>
          <dl class="facts">
            <dt>Next run</dt>
            <dd>{data.status === 'paused' && data.resumesAt ? `resumes ${when(data.resumesAt)}` : when(data.nextRunAt)}</dd>
            <dt>Last run</dt>
            <dd>
              {when(data.lastRunAt)}
              {data.lastJobId ? (
                <>
                  {' '}
                  (<Link href={`/jobs/${data.lastJobId}`}>job</Link>)
                </>
              ) : null}
            </dd>
            <dt>Last fired</dt>
            <dd>{when(data.lastTriggeredAt)}</dd>
            <dt>Credits</dt>
            <dd>{creditsInWords(data)}</dd>
            {data.lastError ? (
              <>
                <dt>Last run failed</dt>
                <dd class="error">
                  {data.lastError.message} ({when(data.lastError.at)})
                </dd>
              </>
            ) : null}
          </dl>
          <button type="button" class="secondary" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            Edit monitor
          </button>
        </div>
      </div>
      {editing ? (
        <div class="card">
          <h2>Edit monitor</h2>
          <MonitorForm
            initial={data}
            submitLabel="Save monitor"
            busy={update.isPending}
            error={update.error}
            onSubmit={(body) => update.mutate(body)}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : null}
      <MonitorEvents monitor={data} />
    </section>
  );
}

/** The events its rules fired, newest first, each linked to the product's history and to the job that saw the change. */
function MonitorEvents({ monitor }: { monitor: Monitor }) {
  const [offset, setOffset] = useState(0);
  const events = useQuery({
    queryKey: ['monitor-events', monitor.id, offset],
    queryFn: () => api.monitors.events(monitor.id, { limit: PAGE, offset }),
    refetchInterval: REFRESH_MS,
  });
  return (
    <div class="card">
      <h2>Events</h2>
      <ErrorNote error={events.error} />
      {events.data?.meta.total === 0 ? (
        <p>No rule has fired yet. The first run of each target records where it stands; events come from the changes after it.</p>
      ) : null}
      {events.data && events.data.data.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Product</th>
                <th scope="col">Change</th>
                <th scope="col">Rule</th>
                <th scope="col">Job</th>
              </tr>
            </thead>
            <tbody>
              {events.data.data.map((event) => (
                <tr key={event.id} data-testid="monitor-event">
                  <td>{when(event.observedAt)}</td>
                  <td>
                    <Link href={eventProductHref(event)}>{event.subject.asin}</Link>
                    {event.subject.kind === 'rank' ? <span class="muted detail">for “{event.subject.keyword}”</span> : null}
                  </td>
                  <td>{changeInWords(event)}</td>
                  <td>
                    {ruleInWords(event.rule)}
                    {event.confirmedBy ? <span class="muted detail">confirmed {when(event.confirmedBy.at)}</span> : null}
                  </td>
                  <td>
                    <Link href={`/jobs/${event.jobId}`} aria-label={`Job ${event.jobId}`} title={event.jobId}>
                      …{event.jobId.slice(-8)}
                    </Link>
                    {event.confirmedBy && event.confirmedBy.jobId !== event.jobId ? (
                      <span class="detail">
                        <Link href={`/jobs/${event.confirmedBy.jobId}`}>confirmation</Link>
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {events.data && events.data.meta.total > 0 ? (
        <Pager offset={offset} limit={PAGE} count={events.data.data.length} total={events.data.meta.total} onChange={setOffset} />
      ) : null}
    </div>
  );
}
