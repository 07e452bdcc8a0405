export * from './document-store.ts';
export * from './embedded-document-store.ts';
export * from './ids.ts';
export { getPath } from './document-paths.ts';
export * from './mongo-document-store.ts';
