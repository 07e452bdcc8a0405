export * from './document-store.ts';
export * from './ids.ts';
export { getPath } from './document-paths.ts';
