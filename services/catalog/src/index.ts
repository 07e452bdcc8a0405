export { catalogModule, createCatalogModule, catalogOf } from './module.ts';
export { CatalogConfig } from './config.ts';
export type { Catalog, CatalogOptions } from './catalog.ts';
export type { BillingPort } from './features/shared/ports.ts';
export type { JobFinishedListener, OutboxDoc } from './features/events/index.ts';
