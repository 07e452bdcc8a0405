export * from './redis-client.ts';
export * from './rate-budget.ts';
export * from './egress-health.ts';
