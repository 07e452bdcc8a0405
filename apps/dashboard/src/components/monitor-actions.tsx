import type { Job, Monitor } from '@crawl/sdk';
import { useMutation } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api } from '../api/client.ts';
import { ErrorNote } from './error-note.tsx';

/** Pause or resume, run now (the job it started is linked), delete (after a confirmation): each says its outcome. */
export function MonitorActions({ monitor, onChanged, onDeleted }: { monitor: Monitor; onChanged: () => void; onDeleted: () => void }) {
  const [started, setStarted] = useState<Job | null>(null);
  const toggle = useMutation({
    mutationFn: () => (monitor.status === 'active' ? api.monitors.pause(monitor.id) : api.monitors.resume(monitor.id)),
    onSuccess: onChanged,
  });
  const run = useMutation({
    mutationFn: () => api.monitors.run(monitor.id),
    onSuccess: (job) => {
      setStarted(job);
      onChanged();
    },
    // A run past the budget pauses the monitor: show that as well as the refusal.
    onError: onChanged,
  });
  const remove = useMutation({ mutationFn: () => api.monitors.delete(monitor.id), onSuccess: onDeleted });
  return (
    <>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate()}
          aria-label={`${monitor.status === 'active' ? 'Pause' : 'Resume'} monitor ${monitor.name}`}
        >
          {monitor.status === 'active' ? 'Pause' : 'Resume'}
        </button>
        <button type="button" disabled={run.isPending} onClick={() => run.mutate()} aria-label={`Run monitor ${monitor.name} now`}>
          Run now
        </button>
        <button
          type="button"
          class="danger"
          disabled={remove.isPending}
          onClick={() => {
            if (confirm(`Delete the monitor "${monitor.name}" and its events? Its jobs stay.`)) remove.mutate();
          }}
          aria-label={`Delete monitor ${monitor.name}`}
        >
          Delete
        </button>
      </div>
      {started ? (
        <p class="notice" role="status">
          Started <Link href={`/jobs/${started.id}`}>job {started.id}</Link>: {started.targets.length} target{started.targets.length === 1 ? '' : 's'},{' '}
          {started.creditsReserved} credits reserved.
        </p>
      ) : null}
      <ErrorNote error={toggle.error ?? run.error ?? remove.error} />
    </>
  );
}
