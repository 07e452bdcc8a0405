import { type CreateMonitorBody, type Monitor, ruleInWords } from '@crawl/sdk';
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
import { creditsInWords, scheduleInWords, statusInWords } from '../format/monitor-words.ts';
import { MonitorForm } from './monitor-form.tsx';

const PAGE = 20;

/** A project's monitors, newest first: each with its schedule and rules in words, what it spends, and its actions; and the editor that creates one. */
export function MonitorsPage({ projectId }: { projectId: string }) {
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['monitors', projectId, offset], queryFn: () => api.monitors.list(projectId, { limit: PAGE, offset }) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['monitors', projectId] });
  const create = useMutation({
    mutationFn: (body: CreateMonitorBody) => api.monitors.create(projectId, body),
    onSuccess: (monitor) => {
      void invalidate();
      navigate(`/monitors/${monitor.id}`);
    },
  });

  return (
    <section>
      <ProjectTabs projectId={projectId} />
      <PageTitle
        title="Monitors"
        actions={
          creating ? null : (
            <button type="button" onClick={() => setCreating(true)}>
              New monitor
            </button>
          )
        }
      >
        Monitors
      </PageTitle>
      <p class="muted">
        Products or a keyword's results crawled on a schedule; a rule fires an event when what it watches changes (a price drop, a stock-out, another buy-box
        seller, a move into the top places).
      </p>
      {creating ? (
        <div class="card">
          <h2>New monitor</h2>
          <MonitorForm
            submitLabel="Create monitor"
            busy={create.isPending}
            error={create.error}
            onSubmit={(body) => create.mutate(body)}
            onCancel={() => setCreating(false)}
          />
        </div>
      ) : null}
      <ErrorNote error={list.error} />
      {list.data?.meta.total === 0 && !creating ? <p>No monitors yet.</p> : null}
      <ul class="cards">
        {list.data?.data.map((monitor) => (
          <MonitorCard key={monitor.id} monitor={monitor} onChanged={invalidate} />
        ))}
      </ul>
      {list.data && list.data.meta.total > PAGE ? (
        <Pager offset={offset} limit={PAGE} count={list.data.data.length} total={list.data.meta.total} onChange={setOffset} />
      ) : null}
    </section>
  );
}

function MonitorCard({ monitor, onChanged }: { monitor: Monitor; onChanged: () => void }) {
  return (
    <li class="card" data-testid="monitor-card">
      <h2>
        <Link href={`/monitors/${monitor.id}`}>{monitor.name}</Link> <span class={`status status-${monitor.status}`}>{statusInWords(monitor)}</span>
      </h2>
      <p>
        {scheduleInWords(monitor)}: {monitor.targets.length} {monitor.type === 'details' ? 'product' : 'keyword'}
        {monitor.targets.length === 1 ? '' : 's'} on {monitor.domain}
        {monitor.deliveryZip ? `, delivered to ${monitor.deliveryZip}` : ''}
      </p>
      <ul class="rule-list">
        {monitor.rules.map((rule) => (
          <li key={`${rule.field}-${rule.op}-${rule.value ?? ''}`}>{ruleInWords(rule)}</li>
        ))}
      </ul>
      <dl class="facts">
        <dt>Next run</dt>
        <dd>{when(monitor.nextRunAt)}</dd>
        <dt>Last fired</dt>
        <dd>{when(monitor.lastTriggeredAt)}</dd>
        <dt>Credits</dt>
        <dd>{creditsInWords(monitor)}</dd>
        {monitor.lastError ? (
          <>
            <dt>Last run failed</dt>
            <dd class="error">{monitor.lastError.message}</dd>
          </>
        ) : null}
      </dl>
      <MonitorActions monitor={monitor} onChanged={onChanged} onDeleted={onChanged} />
      <p>
        <Link href={`/monitors/${monitor.id}`}>Events and settings</Link>
      </p>
    </li>
  );
}
