import { AuthRoutes, type LoginBody, type RegisterBody, type VerifyHandoffBody } from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import type { RouteData } from '../route-types.ts';
import type { AuthUser, Session } from '../types.ts';
import { normalizeSession } from '../variants.ts';

export type Me = RouteData<typeof AuthRoutes.me>;

export interface Handoff {
  handoffToken: string;
  expiresIn: number;
  user: AuthUser;
}

/** Accounts and tokens. register, login and verifyHandoff keep the new token on the client for the calls after them. */
export class AuthApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  async register(body: RegisterBody, options?: CallOptions): Promise<Session> {
    return this.keep(normalizeSession(await this.transport.call(AuthRoutes.register, { body }, options)));
  }

  /** Wrong credentials throw `CrawlApiError` (401 `INVALID_CREDENTIALS`, or the documented 200 `{success: false}` variant). */
  async login(body: LoginBody, options?: CallOptions): Promise<Session> {
    return this.keep(normalizeSession(await this.transport.call(AuthRoutes.login, { body }, options)));
  }

  async loginHandoff(body: LoginBody, options?: CallOptions): Promise<Handoff> {
    const answer = (await this.transport.call(AuthRoutes.loginHandoff, { body }, options)) as Partial<Handoff> & { data?: Handoff };
    return typeof answer.handoffToken === 'string' ? (answer as Handoff) : (answer.data as Handoff);
  }

  /** `audience: 'dashboard'` yields the dashboard token the credit routes need. */
  async verifyHandoff(body: VerifyHandoffBody, options?: CallOptions): Promise<Session> {
    return this.keep(normalizeSession(await this.transport.call(AuthRoutes.verifyHandoff, { body }, options)));
  }

  /** Tokens are stateless: the server only answers 204; the client forgets its token. */
  async logout(options?: CallOptions): Promise<void> {
    await this.transport.call(AuthRoutes.logout, {}, options);
    this.transport.setToken(undefined);
  }

  async me(options?: CallOptions): Promise<Me> {
    return (await this.transport.call(AuthRoutes.me, {}, options)).data;
  }

  private keep(session: Session): Session {
    this.transport.setToken(session.accessToken);
    return session;
  }
}
