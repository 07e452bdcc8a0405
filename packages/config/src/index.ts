export * from './load-config.ts';
export * from './comma-list.ts';
