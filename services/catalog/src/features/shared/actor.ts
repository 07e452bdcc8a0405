import type { Identity } from '@crawl/contracts';

/** Who does something: the user and the organization every read and write is scoped to. */
export type Actor = Pick<Identity, 'userId' | 'organizationId'>;
