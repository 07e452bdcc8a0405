import type { DestinationDelivery } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { api } from '../api/client.ts';
import { when } from '../format/dates.ts';
import { deliveryText } from '../format/delivery-words.ts';
import { ErrorNote } from './error-note.tsx';
import { StatusBadge } from './status-badge.tsx';

/** A job's writes to its destination (`config.destinationId`): each with its attempts, what it wrote or why it failed, and Replay. */
export function JobDeliveries({ jobId, finished }: { jobId: string; finished: boolean }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['job-deliveries', jobId],
    queryFn: () => api.jobs.deliveries(jobId),
    // A delivery is logged just after the job ends and retries in the background: follow the job
    // until one is listed, and then while one is still open.
    refetchInterval: (query) => {
      const list = query.state.data ?? [];
      return !finished || list.length === 0 || list.some((d) => d.status === 'pending' || d.status === 'sending') ? 2_000 : false;
    },
  });
  const replay = useMutation({
    mutationFn: (delivery: DestinationDelivery) => api.jobs.replayDelivery(jobId, delivery.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['job-deliveries', jobId] }),
  });
  return (
    <section class="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries to the destination</h2>
      <ErrorNote error={deliveries.error ?? replay.error} />
      {deliveries.data?.length === 0 ? <p class="muted">{finished ? 'No delivery yet.' : 'Written when the job ends.'}</p> : null}
      {deliveries.data && deliveries.data.length > 0 ? (
        <div class="table-wrap">
          <table data-testid="job-deliveries">
            <caption class="sr-only">Deliveries of this job</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Outcome</th>
                <th scope="col">Objects</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <StatusBadge status={delivery.status} />
                  </td>
                  <td>{delivery.attemptCount}</td>
                  <td class={delivery.status === 'failed' ? 'error' : ''}>{deliveryText(delivery)}</td>
                  <td>{delivery.manifestKey ? <code>{delivery.manifestKey}</code> : '–'}</td>
                  <td>{when(delivery.deliveredAt ?? delivery.updatedAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      disabled={replay.isPending || delivery.status === 'sending'}
                      onClick={() => replay.mutate(delivery)}
                      aria-label={`Replay delivery ${delivery.id}`}
                    >
                      Replay
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
