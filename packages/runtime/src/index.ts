export * from './backends.ts';
export * from './build-process.ts';
export * from './data-dir.ts';
export * from './module-order.ts';
export * from './run-process.ts';
export * from './runtime-config.ts';
export * from './secrets.ts';
export * from './service-module.ts';
