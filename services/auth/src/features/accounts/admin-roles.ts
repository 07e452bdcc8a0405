import type { DocumentStore } from '@crawl/storage';
import { normalizeEmail } from './account-service.ts';
import { AccountRepository } from './account-repository.ts';

export type AdminChange = 'grant' | 'revoke';

export interface AdminRoleResult {
  email: string;
  userId: string;
  admin: boolean;
}

/**
 * The operator's way to make a user an admin or stop it being one: written straight into auth's
 * store (no HTTP route can do it). Tokens carry the role from the next login or handoff on.
 * @returns null when no user has this email.
 */
export async function changeAdminRole(store: DocumentStore, change: AdminChange, emailInput: string, now = new Date()): Promise<AdminRoleResult | null> {
  const repository = new AccountRepository(store);
  const email = normalizeEmail(emailInput);
  const user = await repository.setAdmin(email, change === 'grant', now.toISOString());
  return user ? { email: user.email, userId: user._id, admin: user.role === 'admin' } : null;
}

/** Emails of the users holding the admin role. */
export async function listAdmins(store: DocumentStore): Promise<string[]> {
  return (await new AccountRepository(store).findAdmins()).map((user) => user.email);
}
