import { readFileSync } from 'node:fs';
import { isCrawlApiError, type Session } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { UsageError } from '../cli-io.ts';
import { fields } from '../output/table.ts';
import type { Action } from './action.ts';

interface LoginOptions {
  email: string;
  password?: string;
  passwordStdin?: boolean;
  register?: boolean;
  name?: string;
}

export function authCommands(program: Command, action: Action): void {
  program
    .command('login')
    .description('log in and keep the token for the next commands (under $XDG_CONFIG_HOME/crawl, mode 600)')
    .requiredOption('--email <email>', 'account email')
    .option('--password <password>', 'password (or CRAWL_PASSWORD, or --password-stdin)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--register', 'create the account first (a new organization with its signup credits); logs in if it exists')
    .option('--name <name>', 'your name, with --register')
    .action(action(login));

  program
    .command('logout')
    .description('forget the stored token')
    .action(
      action(async (ctx: CliContext) => {
        const stored = ctx.store.read();
        // Tokens are stateless: the server only acknowledges; forgetting it is what logs out.
        if (stored)
          await ctx
            .anonymousClient()
            .auth.logout()
            .catch(() => undefined);
        const removed = ctx.store.remove();
        ctx.output.result({ loggedOut: removed }, () => (removed ? `Logged out (removed ${ctx.store.path})` : 'Not logged in'));
      }),
    );

  program
    .command('whoami')
    .description('the user and organization of the stored token')
    .action(
      action(async (ctx: CliContext) => {
        const me = await ctx.client().auth.me();
        ctx.output.result(me, () =>
          fields([
            ['email', me.user.email],
            ['name', me.user.name],
            ['organization', me.organizationId],
            ['role', me.role],
            ['api', ctx.baseUrl()],
          ]),
        );
      }),
    );
}

async function login(ctx: CliContext, _args: string[], options: LoginOptions): Promise<void> {
  const password = options.passwordStdin ? readFileSync(0, 'utf8').replace(/\r?\n$/, '') : (options.password ?? ctx.io.env.CRAWL_PASSWORD);
  if (!password) throw new UsageError('a password is needed: --password, --password-stdin or CRAWL_PASSWORD');
  const client = ctx.anonymousClient();
  let session: Session;
  let registered = false;
  if (options.register) {
    try {
      session = await client.auth.register({ email: options.email, password, ...(options.name ? { name: options.name } : {}) });
      registered = true;
    } catch (error) {
      if (!isCrawlApiError(error, 'CONFLICT')) throw error;
      session = await client.auth.login({ email: options.email, password });
    }
  } else {
    session = await client.auth.login({ email: options.email, password });
  }
  const expiresAt = new Date(Date.now() + session.expiresIn * 1000).toISOString();
  ctx.store.write({ baseUrl: client.baseUrl, token: session.accessToken, email: session.user.email, expiresAt });
  ctx.output.result({ user: session.user, baseUrl: client.baseUrl, registered, expiresAt, credentialsFile: ctx.store.path }, () => {
    const c = ctx.output.colors;
    return `${registered ? 'Registered and logged in' : 'Logged in'} as ${c.bold(session.user.email)} at ${client.baseUrl} (token valid until ${expiresAt}, kept in ${ctx.store.path})`;
  });
}
