export * from './embedded-backends.ts';
export * from './test-service.ts';
