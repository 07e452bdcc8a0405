import type { AdminCreditsBody, AdminLimitsBody } from '@crawl/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { useSession } from '../auth/session.ts';
import { Bar } from '../components/bar.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';

/** Operator tools (admin role): an organization's credits and limits, the upstream crawl rate, queue stats. */
export function AdminPage() {
  const session = useSession();
  if (session?.role !== 'admin') {
    return (
      <section>
        <PageTitle title="Admin">Admin</PageTitle>
        <p>This page is for administrators.</p>
      </section>
    );
  }
  return (
    <section>
      <PageTitle title="Admin">Admin</PageTitle>
      <div class="grid2">
        <CrawlerRateCard />
        <QueueCard />
      </div>
      <OrganizationCard />
    </section>
  );
}

function CrawlerRateCard() {
  const queryClient = useQueryClient();
  const rate = useQuery({ queryKey: ['admin', 'rate'], queryFn: () => api.admin.crawlerRate() });
  const set = useMutation({
    mutationFn: (requestsPerMinute: number) => api.admin.setCrawlerRate({ requestsPerMinute }),
    onSuccess: (data) => queryClient.setQueryData(['admin', 'rate'], data),
  });
  return (
    <div class="card">
      <h2>Upstream rate</h2>
      <ErrorNote error={rate.error ?? set.error} />
      {rate.data ? (
        <p>
          <strong>{rate.data.requestsPerMinute}</strong> requests per minute per egress identity (burst {rate.data.burst}, {rate.data.source})
        </p>
      ) : null}
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          set.mutate(Number(new FormData(event.currentTarget as HTMLFormElement).get('rpm')));
        }}
      >
        <label>
          Requests per minute
          <input name="rpm" type="number" min={1} required />
        </label>
        <button type="submit">Set rate</button>
      </form>
    </div>
  );
}

function QueueCard() {
  const stats = useQuery({ queryKey: ['admin', 'queue'], queryFn: () => api.admin.queueStats(), refetchInterval: 5_000 });
  return (
    <div class="card">
      <h2>Crawl queue</h2>
      <ErrorNote error={stats.error} />
      {stats.data ? (
        <dl class="facts">
          <dt>Queue</dt>
          <dd>
            {stats.data.queue} ({stats.data.backend})
          </dd>
          <dt>Waiting</dt>
          <dd data-testid="queue-waiting">{stats.data.waiting}</dd>
          <dt>Active</dt>
          <dd>{stats.data.active}</dd>
          <dt>Delayed</dt>
          <dd>{stats.data.delayed}</dd>
          <dt>Failed</dt>
          <dd>{stats.data.failed}</dd>
          <dt>Completed</dt>
          <dd>{stats.data.completed}</dd>
          <dt>Organizations waiting</dt>
          <dd>{stats.data.groups}</dd>
        </dl>
      ) : null}
    </div>
  );
}

function OrganizationCard() {
  const queryClient = useQueryClient();
  const [organizationId, setOrganizationId] = useState('');
  const usage = useQuery({ queryKey: ['admin', 'usage', organizationId], queryFn: () => api.admin.usage(organizationId), enabled: organizationId !== '' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'usage', organizationId] });
  const credits = useMutation({ mutationFn: (body: AdminCreditsBody) => api.admin.grantCredits(organizationId, body), onSuccess: refresh });
  const limits = useMutation({ mutationFn: (body: AdminLimitsBody) => api.admin.setLimits(organizationId, body), onSuccess: refresh });
  return (
    <div class="card">
      <h2>Organization</h2>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          setOrganizationId(String(new FormData(event.currentTarget as HTMLFormElement).get('org') ?? '').trim());
        }}
      >
        <label>
          Organization id
          <input name="org" required />
        </label>
        <button type="submit">Look up</button>
      </form>
      <ErrorNote error={usage.error} />
      {usage.data ? (
        <>
          <p>
            Balance: <strong data-testid="admin-available">{usage.data.balance.available.toLocaleString()}</strong> available, {usage.data.balance.reserved}{' '}
            reserved, {usage.data.balance.spent} spent, {usage.data.balance.granted} granted
          </p>
          <Bar label="Jobs" value={usage.data.used.jobsThisMonth} max={usage.data.limits.jobsPerMonth} />
          <Bar label="Targets" value={usage.data.used.targetsThisMonth} max={usage.data.limits.targetsPerMonth} />
          <Bar label="Exports" value={usage.data.used.exportsThisMonth} max={usage.data.limits.exportsPerMonth} />
          <h3>Credits</h3>
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              const data = new FormData(event.currentTarget as HTMLFormElement);
              credits.mutate({
                type: data.get('type') === 'revoke' ? 'revoke' : 'grant',
                amount: Number(data.get('amount')),
                reason: String(data.get('reason') ?? ''),
              });
            }}
          >
            <label>
              Change
              <select name="type">
                <option value="grant">grant</option>
                <option value="revoke">revoke</option>
              </select>
            </label>
            <label>
              Amount
              <input name="amount" type="number" min={1} required />
            </label>
            <label>
              Reason
              <input name="reason" required maxLength={200} />
            </label>
            <button type="submit">Apply</button>
          </form>
          <ErrorNote error={credits.error} />
          <h3>Monthly limits</h3>
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              const data = new FormData(event.currentTarget as HTMLFormElement);
              const body: Record<string, number> = {};
              for (const key of ['jobsPerMonth', 'targetsPerMonth', 'exportsPerMonth']) {
                const value = String(data.get(key) ?? '').trim();
                if (value) body[key] = Number(value);
              }
              limits.mutate(body as AdminLimitsBody);
            }}
          >
            <label>
              Jobs per month
              <input name="jobsPerMonth" type="number" min={0} placeholder={String(usage.data.limits.jobsPerMonth)} />
            </label>
            <label>
              Targets per month
              <input name="targetsPerMonth" type="number" min={0} placeholder={String(usage.data.limits.targetsPerMonth)} />
            </label>
            <label>
              Exports per month
              <input name="exportsPerMonth" type="number" min={0} placeholder={String(usage.data.limits.exportsPerMonth)} />
            </label>
            <button type="submit">Set limits</button>
          </form>
          <ErrorNote error={limits.error} />
        </>
      ) : null}
    </div>
  );
}
