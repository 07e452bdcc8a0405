export * from './all-modules.ts';
export * from './targets.ts';
