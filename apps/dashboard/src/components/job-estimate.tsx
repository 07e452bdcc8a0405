import type { CreateJobBody } from '@crawl/sdk';
import { keepPreviousData, useQuery } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { balanceText, estimateCreditsText, maxCreditsText, queueText, quotaText } from '../format/job-estimate-words.ts';
import { ErrorNote } from './error-note.tsx';

/** How long the form must stay unchanged before the server is asked: typing a target list is many keystrokes. */
const SETTLE_MS = 400;

/** The server's estimate of the job the form describes now (`POST /jobs/estimate`, nothing created), asked once typing settles. */
export function JobEstimatePanel({ projectId, body }: { projectId: string; body: CreateJobBody | null }) {
  const key = body ? JSON.stringify(body) : null;
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  const estimate = useQuery({
    queryKey: ['job-estimate', projectId, settled],
    queryFn: () => api.jobs.estimate(projectId, JSON.parse(settled!) as CreateJobBody),
    enabled: settled !== null,
    // Keep the last figures on screen while the next ones are asked, so the panel does not flicker.
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (settled === null) return null;
  const data = estimate.data;
  const cap = data ? maxCreditsText(data) : null;
  return (
    <div class="estimate" aria-live="polite" data-testid="job-estimate" aria-busy={estimate.isFetching || key !== settled}>
      <ErrorNote error={estimate.error} />
      {data ? (
        <ul>
          <li>
            Server estimate: <strong data-testid="estimate-credits">{estimateCreditsText(data)}</strong> for {data.targetCount.toLocaleString('en-US')} target
            {data.targetCount === 1 ? '' : 's'}
            {cap ? (
              <>
                {' '}
                · <span class={data.withinMaxCredits ? '' : 'error'}>{cap}</span>
              </>
            ) : null}
          </li>
          <li class={data.balance.sufficient ? '' : 'error'} data-testid="estimate-balance">
            {balanceText(data)}
          </li>
          <li class={data.quota.exceedsJobs || data.quota.exceedsTargets ? 'error' : ''}>Monthly limits: {quotaText(data)}</li>
          <li data-testid="estimate-queue">Queue: {queueText(data)}</li>
        </ul>
      ) : null}
    </div>
  );
}
