export * from './load-config.ts';
