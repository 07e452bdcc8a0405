export * from './embedded-document-store.ts';
