import { PASSWORD_MIN_LENGTH } from '@crawl/contracts';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { signIn, signUp } from '../auth/sign-in-flow.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';

/** Sign in, or sign up (with the referral code of a shared link, `?ref=CODE`). */
export function SignInPage() {
  const referral = new URLSearchParams(location.search).get('ref') ?? '';
  const [mode, setMode] = useState<'in' | 'up'>(referral ? 'up' : 'in');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // Opening a shared link counts as a click for the referrer (best effort: an unknown code is not an error here).
    if (referral) api.referral.click({ code: referral }).catch(() => undefined);
  }, [referral]);

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    setBusy(true);
    setError(null);
    try {
      if (mode === 'in') await signIn(email, password);
      else {
        const name = String(form.get('name') ?? '').trim();
        const code = String(form.get('referralCode') ?? '').trim();
        await signUp({ email, password, ...(name ? { name } : {}), ...(code ? { referralCode: code } : {}) });
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card auth-card">
      <PageTitle title={mode === 'in' ? 'Sign in' : 'Sign up'}>{mode === 'in' ? 'Sign in' : 'Create an account'}</PageTitle>
      <form onSubmit={submit}>
        {mode === 'up' ? (
          <label>
            Name
            <input name="name" autoComplete="name" maxLength={120} />
          </label>
        ) : null}
        <label>
          Email
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            required
            minLength={mode === 'up' ? PASSWORD_MIN_LENGTH : 1}
            autoComplete={mode === 'up' ? 'new-password' : 'current-password'}
          />
        </label>
        {mode === 'up' ? (
          <label>
            Referral code (optional)
            <input name="referralCode" defaultValue={referral} maxLength={64} />
          </label>
        ) : null}
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {mode === 'in' ? 'Sign in' : 'Sign up'}
        </button>
      </form>
      <p>
        {mode === 'in' ? 'No account yet?' : 'Already have an account?'}{' '}
        <button
          type="button"
          class="link"
          onClick={() => {
            setMode(mode === 'in' ? 'up' : 'in');
            setError(null);
          }}
        >
          {mode === 'in' ? 'Sign up' : 'Sign in'}
        </button>
      </p>
    </section>
  );
}
