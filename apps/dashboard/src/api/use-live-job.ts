import { type Job, JobEventsUnavailableError, type MonitorEvent, progressOf } from '@crawl/sdk';
import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import { api } from './client.ts';

export type LiveMode = 'stream' | 'polling' | 'done';

const POLL_MS = 1_500;
const isOpen = (job: Job | undefined) => job !== undefined && (job.status === 'queued' || job.status === 'running');

/**
 * A job kept up to date while it runs: from its event stream (GET /jobs/:id/events) where the
 * server has one, else by polling GET /jobs/:id. Either way the job sits in the query cache, so
 * every view of it (status, targets, progress, queue position) follows. On a monitor's run the
 * stream also tells the rules that fired (`fired`, as they come; a stream tells none from before it opened).
 */
export function useLiveJob(jobId: string) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>('stream');
  const [fired, setFired] = useState<MonitorEvent[]>([]);
  const job = useQuery({
    queryKey: ['job', jobId],
    queryFn: () => api.jobs.get(jobId),
    refetchInterval: (query) => (mode === 'polling' && isOpen(query.state.data) ? POLL_MS : false),
  });
  const open = isOpen(job.data);

  useEffect(() => {
    if (!open || mode !== 'stream') return;
    const abort = new AbortController();
    (async () => {
      try {
        for await (const event of api.jobs.events(jobId, { signal: abort.signal })) {
          if (event.type === 'monitor') {
            const fresh = event.event;
            setFired((before) => (before.some((e) => e.id === fresh.id) ? before : [...before, fresh]));
          } else if (event.type === 'target') {
            queryClient.setQueryData<Job>(['job', jobId], (old) => {
              if (!old) return old;
              const targets = old.targets.slice();
              targets[event.index] = event.target;
              return { ...old, targets };
            });
          } else {
            queryClient.setQueryData(['job', jobId], event.job);
          }
        }
        setMode('done');
      } catch (error) {
        if (abort.signal.aborted) return;
        // No stream on this server, or it kept breaking: poll instead.
        if (!(error instanceof JobEventsUnavailableError)) console.warn('job events:', error);
        setMode('polling');
      }
    })();
    return () => abort.abort();
  }, [jobId, open, mode, queryClient]);

  return { job, mode, fired, progress: job.data ? progressOf(job.data) : undefined };
}
