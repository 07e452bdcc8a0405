export * from './internal-tokens.ts';
export * from './service-transport.ts';
export * from './local-transport.ts';
export * from './http-transport.ts';
export * from './service-client.ts';
export * from './clients/billing-client.ts';
export * from './clients/catalog-worker-client.ts';
export * from './clients/audit-client.ts';
