export * from './all-modules.ts';
export * from './backends.ts';
export * from './targets.ts';
export * from './config-table.ts';
