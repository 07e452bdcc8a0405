import type { Schedule, UpdateScheduleBody } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { ProjectTabs } from '../components/project-tabs.tsx';
import { cronInWords, nextRuns } from '../format/cron-words.ts';
import { when } from '../format/dates.ts';
import { scheduleBudgetText } from '../format/delivery-words.ts';
import { parseMaxCredits } from '../format/job-estimate-words.ts';
import { JobForm } from './job-form.tsx';

/** A project's schedules: list, create, edit (cron in words, next runs), enable and disable. */
export function SchedulesPage({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['schedules', projectId], queryFn: () => api.schedules.list(projectId) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['schedules', projectId] });
  const create = useMutation({
    mutationFn: (body: Parameters<typeof api.schedules.create>[1]) => api.schedules.create(projectId, body),
    onSuccess: invalidate,
  });
  const [creating, setCreating] = useState(false);

  return (
    <section>
      <ProjectTabs projectId={projectId} />
      <PageTitle
        title="Schedules"
        actions={
          creating ? null : (
            <button type="button" onClick={() => setCreating(true)}>
              New schedule
            </button>
          )
        }
      >
        Schedules
      </PageTitle>
      {creating ? (
        <div class="card">
          <h2>New schedule</h2>
          <ScheduleForm
            projectId={projectId}
            submitLabel="Create schedule"
            busy={create.isPending}
            error={create.error}
            onSubmit={({ maxCreditsPerMonth, ...body }) =>
              // An update clears a budget with null; a new schedule simply has none.
              create.mutate(
                { ...body, ...(maxCreditsPerMonth != null ? { maxCreditsPerMonth } : {}), crawlConfig: body.crawlConfig!, cron: body.cron!, enabled: true },
                { onSuccess: () => setCreating(false) },
              )
            }
            onCancel={() => setCreating(false)}
          />
        </div>
      ) : null}
      <ErrorNote error={list.error} />
      {list.data?.length === 0 && !creating ? <p>No schedules yet.</p> : null}
      <ul class="cards">
        {list.data?.map((schedule) => (
          <ScheduleCard key={schedule.id} projectId={projectId} schedule={schedule} onChanged={invalidate} />
        ))}
      </ul>
    </section>
  );
}

function ScheduleCard({ projectId, schedule, onChanged }: { projectId: string; schedule: Schedule; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const update = useMutation({
    mutationFn: (body: UpdateScheduleBody) => api.schedules.update(schedule.id, body),
    onSuccess: () => {
      setEditing(false);
      onChanged();
    },
  });
  const described = cronInWords(schedule.cron, schedule.timezone);
  const targets = schedule.crawlConfig.targets ?? [];
  return (
    <li class="card">
      <h2>
        <code>{schedule.cron}</code>{' '}
        <span class={`status status-${schedule.enabled ? 'success' : 'cancelled'}`}>{schedule.enabled ? 'enabled' : 'disabled'}</span>
        {schedule.pausedReason === 'budget_exhausted' ? <span class="status status-failed"> paused: budget spent</span> : null}
      </h2>
      <p>{'words' in described ? described.words : described.error}</p>
      <p class="muted">
        {schedule.crawlConfig.type} · {targets.length} target{targets.length === 1 ? '' : 's'}:{' '}
        {schedule.crawlConfig.targetListId ? `target list ${schedule.crawlConfig.targetListId}` : targets.slice(0, 3).join(', ')}
        {targets.length > 3 ? '…' : ''}
      </p>
      <dl class="facts">
        <dt>Next run</dt>
        <dd>{when(schedule.nextRunAt)}</dd>
        <dt>Last run</dt>
        <dd>
          {when(schedule.lastRunAt)}
          {schedule.lastJobId ? (
            <>
              {' '}
              (<Link href={`/jobs/${schedule.lastJobId}`}>job</Link>)
            </>
          ) : null}
        </dd>
        <dt>Monthly budget</dt>
        <dd class={schedule.pausedReason ? 'error' : ''} data-testid="schedule-budget">
          {scheduleBudgetText(schedule)}
        </dd>
        {schedule.lastError ? (
          <>
            <dt>Last error</dt>
            <dd class="error">{schedule.lastError.message}</dd>
          </>
        ) : null}
      </dl>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          onClick={() => update.mutate({ enabled: !schedule.enabled })}
          aria-label={`${schedule.enabled ? 'Disable' : 'Enable'} schedule ${schedule.cron}`}
        >
          {schedule.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="secondary" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          Edit
        </button>
      </div>
      <ErrorNote error={update.error} />
      {editing ? (
        <ScheduleForm
          projectId={projectId}
          submitLabel="Save schedule"
          busy={update.isPending}
          error={null}
          initial={schedule}
          onSubmit={(body) => update.mutate(body)}
          onCancel={() => setEditing(false)}
        />
      ) : null}
    </li>
  );
}

function ScheduleForm(props: {
  projectId: string;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  initial?: Schedule;
  onSubmit: (body: UpdateScheduleBody) => void;
  onCancel: () => void;
}) {
  const [cron, setCron] = useState(props.initial?.cron ?? '0 6 * * *');
  const [timezone, setTimezone] = useState(props.initial?.timezone ?? 'UTC');
  const described = cronInWords(cron, timezone);
  const runs = nextRuns(cron, timezone);
  const [budgetText, setBudgetText] = useState(props.initial?.maxCreditsPerMonth ? String(props.initial.maxCreditsPerMonth) : '');
  const budget = parseMaxCredits(budgetText);
  return (
    <JobForm
      projectId={props.projectId}
      submitLabel={props.submitLabel}
      busy={props.busy || 'error' in budget}
      error={props.error}
      {...(props.initial ? { initial: props.initial.crawlConfig } : {})}
      onSubmit={(crawlConfig) =>
        // An empty budget is no budget: null removes one the schedule had.
        props.onSubmit({
          cron: cron.trim(),
          timezone: timezone.trim() || 'UTC',
          crawlConfig,
          maxCreditsPerMonth: 'value' in budget ? (budget.value ?? null) : null,
        })
      }
    >
      <label>
        Monthly budget (credits, optional)
        <input
          name="maxCreditsPerMonth"
          inputMode="numeric"
          placeholder="no budget"
          value={budgetText}
          onInput={(event) => setBudgetText((event.currentTarget as HTMLInputElement).value)}
          aria-describedby="budget-note"
        />
        <span id="budget-note" class={'error' in budget ? 'error' : 'muted'}>
          {'error' in budget ? budget.error.replace('Spend at most', 'Monthly budget') : 'A run that would pass it pauses the schedule until the next month.'}
        </span>
      </label>
      <div class="row">
        <label>
          Cron rule
          <input
            name="cron"
            required
            value={cron}
            onInput={(event) => setCron((event.currentTarget as HTMLInputElement).value)}
            aria-describedby="cron-words"
          />
        </label>
        <label>
          Time zone
          <input name="timezone" value={timezone} onInput={(event) => setTimezone((event.currentTarget as HTMLInputElement).value)} />
        </label>
      </div>
      <div id="cron-words" aria-live="polite">
        {'words' in described ? <p data-testid="cron-words">{described.words}</p> : <p class="error">Not a cron rule: {described.error}</p>}
        {runs.length > 0 ? (
          <p class="muted">
            Next runs: {runs.map((run) => run.toLocaleString(undefined, { timeZone: timezone || 'UTC', dateStyle: 'medium', timeStyle: 'short' })).join(' · ')}
          </p>
        ) : null}
      </div>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </JobForm>
  );
}
