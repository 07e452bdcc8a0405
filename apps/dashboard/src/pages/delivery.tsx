import type { Destination, DestinationTestResult } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { DestinationForm } from '../components/destination-form.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { ProjectTabs } from '../components/project-tabs.tsx';
import { when } from '../format/dates.ts';
import { destinationFormatText, destinationWhere } from '../format/delivery-words.ts';

/** Where a project's results go: its destinations (S3-compatible buckets), created, tested and deleted here. */
export function DeliveryPage({ projectId }: { projectId: string }) {
  return (
    <section>
      <ProjectTabs projectId={projectId} />
      <PageTitle title="Delivery">Delivery</PageTitle>
      <DestinationsCard projectId={projectId} />
    </section>
  );
}

function DestinationsCard({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['destinations', projectId], queryFn: () => api.destinations.list(projectId, { limit: 100 }) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['destinations', projectId] });
  const [adding, setAdding] = useState(false);
  const create = useMutation({
    mutationFn: (body: Parameters<typeof api.destinations.create>[1]) => api.destinations.create(projectId, body),
    onSuccess: invalidate,
  });
  return (
    <article class="card" aria-labelledby="destinations-title">
      <h2 id="destinations-title">Destinations</h2>
      <p class="muted">
        A job that names one (in the job form, "Write the results to") has its results written there when it ends: parts under{' '}
        <code>&lt;prefix&gt;/&lt;jobId&gt;/</code> and a <code>manifest.json</code>.
      </p>
      <ErrorNote error={list.error} />
      {list.data?.data.length === 0 ? <p>No destinations yet.</p> : null}
      <ul class="plain" data-testid="destinations">
        {list.data?.data.map((destination) => (
          <DestinationRow key={destination.id} destination={destination} onChanged={invalidate} />
        ))}
      </ul>
      {adding ? (
        <>
          <DestinationForm
            busy={create.isPending}
            onSubmit={(body, form) =>
              create.mutate(body, {
                onSuccess: () => {
                  form.reset();
                  setAdding(false);
                },
              })
            }
          />
          <ErrorNote error={create.error} />
        </>
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          New destination
        </button>
      )}
    </article>
  );
}

function DestinationRow({ destination, onChanged }: { destination: Destination; onChanged: () => void }) {
  const [result, setResult] = useState<DestinationTestResult | null>(null);
  const test = useMutation({ mutationFn: () => api.destinations.test(destination.id), onSuccess: setResult });
  const remove = useMutation({ mutationFn: () => api.destinations.delete(destination.id), onSuccess: onChanged });
  const label = destination.name || destination.bucket;
  return (
    <li class="destination">
      <p>
        <strong>{label}</strong> <code>{destinationWhere(destination)}</code> · {destinationFormatText(destination)}
      </p>
      <p class="muted">
        Last test {when(destination.lastTestAt)}
        {destination.lastTestError ? <span class="error"> failed: {destination.lastTestError}</span> : null}
      </p>
      {result ? (
        <p role="status" class={result.ok ? '' : 'error'} data-testid="destination-test">
          {result.ok ? `Test object written (${result.key}, ${result.latencyMs} ms).` : `Test failed: ${result.error ?? 'no reason given'}`}
        </p>
      ) : null}
      <div class="actions">
        <button type="button" class="secondary" disabled={test.isPending} onClick={() => test.mutate()} aria-label={`Test destination ${label}`}>
          Test
        </button>
        <button
          type="button"
          class="danger"
          aria-label={`Delete destination ${label}`}
          onClick={() => {
            if (confirm(`Delete the destination ${label}? Objects already written stay in the bucket.`)) remove.mutate();
          }}
        >
          Delete
        </button>
      </div>
      <ErrorNote error={test.error ?? remove.error} />
    </li>
  );
}
