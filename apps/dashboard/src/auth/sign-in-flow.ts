import { AuthRoutes, type RegisterBody } from '@crawl/contracts';
import { CrawlClient } from '@crawl/sdk';
import { api } from '../api/client.ts';
import { type DashboardSession, claimsOf, setSession } from './session.ts';

/**
 * Signing in to the dashboard is the login handoff: the credentials buy a one-time handoff token,
 * exchanged for a token of the dashboard audience (the one the credit routes under /private need;
 * every other route takes it too).
 */
export async function signIn(email: string, password: string): Promise<DashboardSession> {
  const auth = authClient();
  const handoff = await auth.auth.loginHandoff({ email, password });
  const session = await auth.auth.verifyHandoff({ handoffToken: handoff.handoffToken, audience: 'dashboard' });
  const dashboard: DashboardSession = {
    token: session.accessToken,
    user: session.user,
    ...claimsOf(session.accessToken),
    expiresAt: Date.now() + session.expiresIn * 1000,
  };
  setSession(dashboard);
  return dashboard;
}

export async function signUp(body: RegisterBody): Promise<DashboardSession> {
  await authClient().auth.register(body);
  return signIn(body.email, body.password);
}

export async function signOut(): Promise<void> {
  // Through call(): the SDK's logout() would also drop the client's token getter.
  await api.call(AuthRoutes.logout, {}).catch(() => undefined);
  setSession(null);
}

/** A client of its own for the credential exchanges (the SDK keeps each new token on the client that got it). */
function authClient(): CrawlClient {
  return new CrawlClient({ baseUrl: api.baseUrl, retry: false });
}
