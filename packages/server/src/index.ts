export * from './all-modules.ts';
export * from './targets.ts';
export * from './config-table.ts';
