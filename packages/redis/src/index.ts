export * from './redis-client.ts';
export * from './rate-budget.ts';
