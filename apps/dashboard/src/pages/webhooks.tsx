import type { WebhookDelivery, WebhookEndpoint } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { ProjectTabs } from '../components/project-tabs.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { when } from '../format/dates.ts';

/** A project's webhook endpoints: register (secret shown once), test, enable/disable, deliveries with every attempt, replay. */
export function WebhooksPage({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['webhooks', projectId], queryFn: () => api.webhooks.list(projectId) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['webhooks', projectId] });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const create = useMutation({
    mutationFn: (body: { url: string; description?: string }) => api.webhooks.create(projectId, body),
    onSuccess: (endpoint) => {
      setSecret({ url: endpoint.url, secret: endpoint.secret });
      void invalidate();
    },
  });

  return (
    <section>
      <ProjectTabs projectId={projectId} />
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget as HTMLFormElement;
          const data = new FormData(form);
          const description = String(data.get('description') ?? '').trim();
          create.mutate({ url: String(data.get('url') ?? '').trim(), ...(description ? { description } : {}) }, { onSuccess: () => form.reset() });
        }}
      >
        <label>
          Endpoint URL
          <input name="url" type="url" required placeholder="https://example.com/hooks/crawl" />
        </label>
        <label>
          Description
          <input name="description" maxLength={200} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Add endpoint
        </button>
      </form>
      <ErrorNote error={create.error} />
      {secret ? (
        <div class="notice" role="status">
          <p>Signing secret of {secret.url}, shown only now: store it where your receiver verifies signatures.</p>
          <p>
            <code class="secret" data-testid="webhook-secret">
              {secret.secret}
            </code>
          </p>
          <button type="button" class="secondary" onClick={() => setSecret(null)}>
            I stored it
          </button>
        </div>
      ) : null}
      <ErrorNote error={list.error} />
      {list.data?.length === 0 ? <p>No endpoints yet.</p> : null}
      {list.data?.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} onChanged={invalidate} onSecret={(s) => setSecret({ url: endpoint.url, secret: s })} />
      ))}
    </section>
  );
}

function EndpointCard({ endpoint, onChanged, onSecret }: { endpoint: WebhookEndpoint; onChanged: () => void; onSecret: (secret: string) => void }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['deliveries', endpoint.id],
    queryFn: () => api.webhooks.deliveries(endpoint.id, { limit: 20 }),
    // Deliveries go out in the background: follow them while any is still on its way.
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending' || d.status === 'sending') ? 1_500 : false),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['deliveries', endpoint.id] });
  const test = useMutation({ mutationFn: () => api.webhooks.test(endpoint.id), onSuccess: refresh });
  const toggle = useMutation({ mutationFn: () => api.webhooks.update(endpoint.id, { enabled: !endpoint.enabled }), onSuccess: onChanged });
  const rotate = useMutation({ mutationFn: () => api.webhooks.rotateSecret(endpoint.id), onSuccess: (updated) => onSecret(updated.secret) });
  const remove = useMutation({ mutationFn: () => api.webhooks.delete(endpoint.id), onSuccess: onChanged });
  const replay = useMutation({ mutationFn: (delivery: WebhookDelivery) => api.webhooks.replay(endpoint.id, delivery.id), onSuccess: refresh });

  return (
    <article class="card">
      <h2>
        <code>{endpoint.url}</code>{' '}
        <span class={`status status-${endpoint.enabled ? 'success' : 'cancelled'}`}>{endpoint.enabled ? 'enabled' : 'disabled'}</span>
      </h2>
      {endpoint.description ? <p>{endpoint.description}</p> : null}
      <p class="muted">
        Events: {endpoint.events.join(', ')} · last success {when(endpoint.lastSuccessAt)} · last failure {when(endpoint.lastFailureAt)}
        {endpoint.disabledReason ? ` · disabled: ${endpoint.disabledReason.message}` : ''}
      </p>
      <div class="actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          Send test event
        </button>
        <button type="button" class="secondary" onClick={() => toggle.mutate()}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="secondary" onClick={() => rotate.mutate()}>
          Rotate secret
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (confirm(`Delete the endpoint ${endpoint.url}?`)) remove.mutate();
          }}
        >
          Delete
        </button>
      </div>
      <ErrorNote error={test.error ?? toggle.error ?? rotate.error ?? remove.error ?? replay.error ?? deliveries.error} />
      <h3>Deliveries</h3>
      {deliveries.data?.data.length === 0 ? <p>No deliveries yet.</p> : null}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data?.data.map((delivery) => (
              <tr key={delivery.id} data-testid="delivery">
                <td>
                  {delivery.eventType}
                  <br />
                  <code class="muted">{delivery.eventId}</code>
                </td>
                <td>
                  <StatusBadge status={delivery.status} />
                  {delivery.lastError ? <div class="muted">{delivery.lastError}</div> : null}
                </td>
                <td>
                  <ol class="attempts">
                    {delivery.attempts.map((attempt) => (
                      <li key={`${attempt.attempt}-${attempt.at}`}>
                        {when(attempt.at)}: {attempt.statusCode ?? 'no answer'} in {attempt.latencyMs} ms{attempt.replay ? ' (replay)' : ''}
                        {attempt.error ? ` · ${attempt.error}` : ''}
                      </li>
                    ))}
                  </ol>
                  {delivery.nextAttemptAt ? <div class="muted">next attempt {when(delivery.nextAttemptAt)}</div> : null}
                </td>
                <td>{when(delivery.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => replay.mutate(delivery)}
                    aria-label={`Replay ${delivery.eventType} ${delivery.eventId}`}
                  >
                    Replay
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}
