import type { AuthUser, RegisterBody, Role, SessionResponse, TokenAudience } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import type { Logger } from '@crawl/logging';
import type { AuditClient, BillingClient } from '@crawl/service-client';
import { DuplicateKeyError, newId } from '@crawl/storage';
import { passwordProblems, type PasswordHasher } from '../passwords/index.ts';
import type { TokenIssuer, TokenSubject } from '../tokens/index.ts';
import type { AccountRepository, UserRecord } from './account-repository.ts';

export interface AccountServiceDeps {
  repository: AccountRepository;
  hasher: PasswordHasher;
  tokens: TokenIssuer;
  clock: Clock;
  logger: Logger;
  billing: BillingClient;
  audit: AuditClient;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function publicUser(user: UserRecord): AuthUser {
  return { id: user._id, email: user.email, name: user.name };
}

/** The `{accessToken, user}` shape, both at top level and under `data` (the spec's two variants). */
function session(user: UserRecord, token: { token: string; expiresIn: number }): SessionResponse {
  const fields = { accessToken: token.token, tokenType: 'Bearer' as const, expiresIn: token.expiresIn, user: publicUser(user) };
  return { ...fields, data: fields };
}

export class AccountService {
  readonly #deps: AccountServiceDeps;

  constructor(deps: AccountServiceDeps) {
    this.#deps = deps;
  }

  /** Only what an operator stored: registering an address proves nothing about owning it. */
  #role(user: UserRecord): Role {
    return user.role === 'admin' ? 'admin' : 'user';
  }

  #subject(user: UserRecord): TokenSubject {
    return { userId: user._id, organizationId: user.organizationId, email: user.email, role: this.#role(user) };
  }

  /**
   * Creates the organization, the membership and then the user; the user insert (unique email) is
   * the commit point, and a lost race removes the organization again, so nothing is half-written.
   */
  async register(body: RegisterBody, requestId: string): Promise<SessionResponse> {
    const { repository, hasher, clock } = this.#deps;
    const email = normalizeEmail(body.email);
    const problems = passwordProblems(body.password, email);
    if (problems.length > 0) throw errors.validation(problems[0] as string, problems);
    if (await repository.findUserByEmail(email)) throw errors.conflict('Email already registered', [{ reason: 'EMAIL_ALREADY_EXISTS' }]);

    const now = clock.now().toISOString();
    const userId = newId('usr_');
    const organizationId = newId('org_');
    const name = body.name?.trim() || email.split('@')[0] || email;
    const user: UserRecord = { _id: userId, email, name, passwordHash: await hasher.hash(body.password), organizationId, createdAt: now, updatedAt: now };
    await repository.organizations.insertOne({
      _id: organizationId,
      name: `${name}'s organization`,
      ownerUserId: userId,
      ...(body.referralCode ? { referralCode: body.referralCode.trim() } : {}),
      createdAt: now,
      updatedAt: now,
    });
    await repository.memberships.insertOne({ _id: newId('mem_'), organizationId, userId, role: 'owner', createdAt: now });
    try {
      await repository.users.insertOne(user);
    } catch (error) {
      await repository.memberships.deleteMany({ organizationId });
      await repository.organizations.deleteOne({ _id: organizationId });
      if (error instanceof DuplicateKeyError) throw errors.conflict('Email already registered', [{ reason: 'EMAIL_ALREADY_EXISTS' }]);
      throw error;
    }
    // Billing also opens accounts lazily, so a failure here costs the user nothing.
    await this.#deps.billing
      .openAccount({ organizationId, ownerUserId: userId, ...(body.referralCode ? { referralCode: body.referralCode.trim() } : {}) }, { requestId })
      .catch((error: unknown) => this.#deps.logger.warn({ err: error, organizationId }, 'could not open the billing account at registration'));
    return session(user, this.#deps.tokens.access(this.#subject(user)));
  }

  /** Same error, and the same argon2 work, for an unknown email and a wrong password. */
  async authenticate(emailInput: string, password: string): Promise<UserRecord> {
    const user = await this.#deps.repository.findUserByEmail(normalizeEmail(emailInput));
    const valid = user ? await this.#deps.hasher.verify(user.passwordHash, password) : await this.#deps.hasher.waste(password);
    if (!user || !valid) throw errors.invalidCredentials();
    return user;
  }

  async login(email: string, password: string, requestId: string): Promise<SessionResponse> {
    const user = await this.authenticate(email, password);
    await this.#deps.audit
      .record({ organizationId: user.organizationId, actorUserId: user._id, action: 'auth.login', resourceType: 'user', resourceId: user._id, requestId })
      .catch((error: unknown) => this.#deps.logger.warn({ err: error }, 'could not record the login in the audit log'));
    return session(user, this.#deps.tokens.access(this.#subject(user)));
  }

  async loginHandoff(email: string, password: string) {
    const user = await this.authenticate(email, password);
    const handoff = this.#deps.tokens.handoff(this.#subject(user));
    const fields = { handoffToken: handoff.token, expiresIn: handoff.expiresIn, user: publicUser(user) };
    return { ...fields, data: fields };
  }

  /** A handoff token is exchanged once, for an access token or a dashboard token. */
  async verifyHandoff(handoffToken: string, audience: TokenAudience): Promise<SessionResponse> {
    const claims = this.#deps.tokens.readHandoff(handoffToken);
    if (!claims) throw errors.unauthorized('Invalid or expired handoff token');
    const user = await this.#deps.repository.findUser(claims.userId);
    if (!user) throw errors.unauthorized('Invalid or expired handoff token');
    try {
      await this.#deps.repository.redemptions.insertOne({ _id: claims.jti, userId: user._id, redeemedAt: this.#deps.clock.now().toISOString() });
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw errors.unauthorized('Handoff token already used');
      throw error;
    }
    return session(user, this.#deps.tokens.access(this.#subject(user), audience));
  }

  async me(userId: string) {
    const user = await this.#deps.repository.findUser(userId);
    if (!user) throw errors.notFound('User');
    return { data: { user: publicUser(user), organizationId: user.organizationId, role: this.#role(user) } };
  }
}
