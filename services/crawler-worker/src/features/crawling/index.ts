/**
 * Crawling a target: claim it from catalog, resolve its storefront, fetch and judge its pages,
 * check its records, report them (or the failure); infrastructure outages retried without spending
 * an attempt. Also the embedded marketplace simulator of MARKETPLACE=simulator.
 */
export { startEmbeddedSimulator } from './marketplace-simulator.ts';
export { TargetCrawler, type CatalogPort, type TargetCrawlerOptions } from './target-crawler.ts';
