import type { CreditPackage } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { useSession } from '../auth/session.ts';
import { Bar } from '../components/bar.tsx';
import { CreditsChart } from '../components/credits-chart.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { creditsPerDay } from '../format/credits-per-day.ts';
import { when } from '../format/dates.ts';

/** Monthly limits against use, the credit balance and its daily spend, credit packages (checkout), referrals. */
export function UsagePage() {
  const queryClient = useQueryClient();
  const session = useSession();
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => api.usage() });
  const packages = useQuery({ queryKey: ['packages'], queryFn: () => api.credits.packages() });
  const month = usage.data?.month;
  const spend = useQuery({ queryKey: ['spend', month], queryFn: () => api.dailyCredits(month), enabled: month !== undefined });
  const [bought, setBought] = useState<string | null>(null);
  const checkout = useMutation({
    mutationFn: (pkg: CreditPackage) => api.credits.checkout({ packageId: pkg.id, idempotencyKey: `dash-${crypto.randomUUID()}` }),
    onSuccess: (result) => {
      setBought(
        result.order.status === 'completed'
          ? `Order ${result.order.id} completed: ${result.order.credits.toLocaleString()} credits added.`
          : `Order ${result.order.id} is ${result.order.status}.`,
      );
      if (result.order.redirectUrl) location.assign(result.order.redirectUrl);
      void queryClient.invalidateQueries({ queryKey: ['usage'] });
      void queryClient.invalidateQueries({ queryKey: ['spend'] });
    },
  });
  const series = spend.data ? creditsPerDay(spend.data) : undefined;

  return (
    <section>
      <PageTitle title="Usage and credits">Usage and credits</PageTitle>
      <ErrorNote error={usage.error} />
      {usage.data ? (
        <div class="grid2">
          <div class="card">
            <h2>This month ({usage.data.month})</h2>
            <Bar label="Jobs" value={usage.data.used.jobsThisMonth} max={usage.data.limits.jobsPerMonth} />
            <Bar label="Targets" value={usage.data.used.targetsThisMonth} max={usage.data.limits.targetsPerMonth} />
            <Bar label="Exports" value={usage.data.used.exportsThisMonth} max={usage.data.limits.exportsPerMonth} />
            {usage.data.charges ? (
              <p data-testid="targets-charged">
                Targets settled: <strong>{usage.data.charges.chargedTargets.toLocaleString()}</strong> charged,{' '}
                <strong>{usage.data.charges.unchargedTargets.toLocaleString()}</strong> delivered without charge.
              </p>
            ) : null}
            <p class="muted">Resets {when(usage.data.resetsAt)}.</p>
          </div>
          <div class="card">
            <h2>Credit balance</h2>
            <p class="balance">
              <strong data-testid="credits-available">{usage.data.credits.available.toLocaleString()}</strong> available
            </p>
            <p class="muted">{usage.data.credits.reserved.toLocaleString()} held by running jobs.</p>
            <p class="muted">
              Organization <code data-testid="organization-id">{session?.organizationId}</code>
            </p>
          </div>
        </div>
      ) : null}
      <div class="card">
        <h2>Credits per day</h2>
        <ErrorNote error={spend.error} />
        {series ? (
          <>
            <CreditsChart days={series.days} credits={series.credits} />
            <p class="muted">
              <span data-testid="credits-spent-month">{series.spent.toLocaleString()}</span> credits spent this month (captured for crawled targets, from the
              credit ledger).
            </p>
          </>
        ) : (
          <p>Loading…</p>
        )}
      </div>
      <div class="card">
        <h2>Buy credits</h2>
        {bought ? (
          <p class="notice" role="status">
            {bought}
          </p>
        ) : null}
        <ErrorNote error={packages.error ?? checkout.error} />
        <ul class="cards">
          {packages.data?.map((pkg) => (
            <li key={pkg.id} class="card">
              <h3>{pkg.name}</h3>
              <p>
                {(pkg.credits + pkg.bonusCredits).toLocaleString()} credits{pkg.bonusCredits ? ` (${pkg.bonusCredits.toLocaleString()} bonus)` : ''}
              </p>
              <p>{new Intl.NumberFormat(undefined, { style: 'currency', currency: pkg.currency }).format(pkg.priceCents / 100)}</p>
              <button type="button" disabled={checkout.isPending} onClick={() => checkout.mutate(pkg)} aria-label={`Buy ${pkg.name}`}>
                Buy
              </button>
            </li>
          ))}
        </ul>
      </div>
      <Referrals />
    </section>
  );
}

function Referrals() {
  const code = useQuery({ queryKey: ['referral', 'code'], queryFn: () => api.referral.code() });
  const stats = useQuery({ queryKey: ['referral', 'stats'], queryFn: () => api.referral.stats() });
  const signUpLink = code.data ? `${location.origin}/app/?ref=${encodeURIComponent(code.data.code)}` : '';
  return (
    <div class="card">
      <h2>Referrals</h2>
      <ErrorNote error={code.error ?? stats.error} />
      {code.data ? (
        <dl class="facts">
          <dt>Your code</dt>
          <dd>
            <code data-testid="referral-code">{code.data.code}</code>
          </dd>
          <dt>Sign-up link</dt>
          <dd>
            <code>{signUpLink}</code>
          </dd>
          <dt>Tracking link</dt>
          <dd>
            <code>{code.data.link}</code>
          </dd>
        </dl>
      ) : null}
      {stats.data ? (
        <p>
          {stats.data.clicks} clicks · {stats.data.signups} sign-ups · {stats.data.rewards} rewards ({stats.data.rewardCredits.toLocaleString()} credits)
        </p>
      ) : null}
    </div>
  );
}
