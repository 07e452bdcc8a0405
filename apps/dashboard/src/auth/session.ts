import type { AuthUser } from '@crawl/sdk';
import { useSyncExternalStore } from 'preact/compat';

/**
 * The signed-in user and their dashboard token. Kept in sessionStorage (this tab only, gone when
 * it closes), never in a cookie: no other origin can make the browser send it, and the API reads
 * only the Authorization header.
 */
export interface DashboardSession {
  token: string;
  user: AuthUser;
  role: 'user' | 'admin';
  organizationId: string;
  expiresAt: number;
}

const KEY = 'crawl.session';
const listeners = new Set<() => void>();
let current: DashboardSession | null = read();

function read(): DashboardSession | null {
  try {
    const stored = globalThis.sessionStorage?.getItem(KEY);
    if (!stored) return null;
    const session = JSON.parse(stored) as DashboardSession;
    return session.expiresAt > Date.now() ? session : null;
  } catch {
    return null;
  }
}

export function currentToken(): string | undefined {
  return current?.token;
}

export function setSession(session: DashboardSession | null): void {
  current = session;
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export function useSession(): DashboardSession | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

/** The role and organization claims of a token, for what the pages show; the API checks them itself. */
export function claimsOf(token: string): { role: 'user' | 'admin'; organizationId: string } {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { role?: unknown; org?: unknown };
    return { role: payload.role === 'admin' ? 'admin' : 'user', organizationId: typeof payload.org === 'string' ? payload.org : '' };
  } catch {
    return { role: 'user', organizationId: '' };
  }
}
