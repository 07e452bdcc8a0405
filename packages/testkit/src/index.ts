export * from './test-service.ts';
