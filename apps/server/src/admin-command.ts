// `crawl-server admin grant|revoke EMAIL` and `crawl-server admin list`: the only way to make a
// user an admin. It writes auth's store directly (SQLite under DATA_DIR, or MongoDB at MONGO_URL),
// so it needs the same storage settings as the running service and no HTTP route can do it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { changeAdminRole, listAdmins } from '@crawl/auth';
import { loadConfig } from '@crawl/config';
import { RuntimeConfig } from '@crawl/runtime';
import { openStorage } from './storage-backend.ts';

export const ADMIN_USAGE = 'usage: crawl-server admin grant EMAIL | admin revoke EMAIL | admin list';

export type AdminCommand = { action: 'grant' | 'revoke'; email: string } | { action: 'list' };

export class AdminUsageError extends Error {
  constructor(message: string) {
    super(`${message}\n${ADMIN_USAGE}`);
    this.name = 'AdminUsageError';
  }
}

export function parseAdminCommand(args: readonly string[]): AdminCommand {
  const [action, email, ...rest] = args;
  if (action === 'list' && email === undefined) return { action };
  if (action !== 'grant' && action !== 'revoke') throw new AdminUsageError(`Unknown admin command "${action ?? ''}"`);
  if (!email || rest.length > 0 || !/^[^@\s]+@[^@\s]+$/.test(email.trim())) throw new AdminUsageError(`admin ${action} needs exactly one email address`);
  return { action, email };
}

export interface AdminCommandOutput {
  out(line: string): void;
  err(line: string): void;
}

/** Runs the command; resolves with the exit code (0 done, 1 no such user, 2 bad usage or settings). */
export async function runAdminCommand(args: readonly string[], env: Record<string, string | undefined>, output: AdminCommandOutput): Promise<number> {
  const command = parseAdminCommand(args);
  const runtime = loadConfig(RuntimeConfig, env);
  if (!runtime.MONGO_URL && !existsSync(join(runtime.DATA_DIR, 'auth.db'))) {
    output.err(`No auth database at ${join(runtime.DATA_DIR, 'auth.db')}: set DATA_DIR (or MONGO_URL) as the service has it.`);
    return 2;
  }
  const storage = await openStorage(runtime);
  try {
    const store = storage.openStore('auth');
    if (command.action === 'list') {
      for (const email of await listAdmins(store)) output.out(email);
      return 0;
    }
    const result = await changeAdminRole(store, command.action, command.email);
    if (!result) {
      output.err(`No user with email ${command.email.trim().toLowerCase()}: the user registers first, then is granted.`);
      return 1;
    }
    output.out(
      `${command.action === 'grant' ? 'Granted admin to' : 'Revoked admin from'} ${result.email} (${result.userId}); tokens issued from now on carry the change (existing tokens keep their role until they expire).`,
    );
    return 0;
  } finally {
    await storage.close();
  }
}
