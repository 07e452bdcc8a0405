export * from './bounded-label.ts';
export * from './ports.ts';
export * from './process-metrics.ts';
