import type { Collection, DocumentStore } from '@crawl/storage';

export interface UserRecord {
  _id: string;
  /** Lower-cased and trimmed: the uniqueness key. */
  email: string;
  name: string;
  passwordHash: string;
  organizationId: string;
  /** Set only by an operator (`crawl-server admin grant`); never from a request. */
  role?: 'admin';
  createdAt: string;
  updatedAt: string;
}

export interface OrganizationRecord {
  _id: string;
  name: string;
  ownerUserId: string;
  referralCode?: string;
  createdAt: string;
  updatedAt: string;
}

export interface MembershipRecord {
  _id: string;
  organizationId: string;
  userId: string;
  role: 'owner' | 'member';
  createdAt: string;
}

export interface HandoffRedemption {
  _id: string;
  userId: string;
  redeemedAt: string;
}

/** Users, organizations and memberships: the data auth owns. */
export class AccountRepository {
  readonly users: Collection<UserRecord>;
  readonly organizations: Collection<OrganizationRecord>;
  readonly memberships: Collection<MembershipRecord>;
  /** Handoff token ids already exchanged: a handoff token works once. */
  readonly redemptions: Collection<HandoffRedemption>;

  constructor(store: DocumentStore) {
    this.users = store.collection('users');
    this.organizations = store.collection('organizations');
    this.memberships = store.collection('memberships');
    this.redemptions = store.collection('handoff_redemptions');
  }

  async init(): Promise<void> {
    await this.users.ensureIndexes([{ keys: { email: 1 }, unique: true, name: 'email_unique' }]);
    await this.memberships.ensureIndexes([{ keys: { userId: 1 } }, { keys: { organizationId: 1, userId: 1 }, unique: true, name: 'org_user_unique' }]);
  }

  findUserByEmail(email: string): Promise<UserRecord | null> {
    return this.users.findOne({ email });
  }

  findUser(id: string): Promise<UserRecord | null> {
    return this.users.findOne({ _id: id });
  }

  /** Grants or takes away the admin role of the user with this (normalized) email; null: no such user. */
  setAdmin(email: string, admin: boolean, now: string): Promise<UserRecord | null> {
    return this.users.updateOne({ email }, admin ? { $set: { role: 'admin', updatedAt: now } } : { $unset: { role: true }, $set: { updatedAt: now } });
  }

  findAdmins(): Promise<UserRecord[]> {
    return this.users.find({ role: 'admin' }, { sort: { email: 1 } });
  }
}
