export * from './mongo-document-store.ts';
export type { DocumentLocksOptions, DocumentLockStats } from './document-locks.ts';
