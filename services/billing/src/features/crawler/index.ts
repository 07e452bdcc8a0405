/** The crawler's settings kept by billing: the admin-set upstream rate, the workers' egress identities, queue statistics. */
export { crawlerAdminRoutes, type CrawlerAdmin, type CrawlQueueStats } from './crawler-routes.ts';
export { CrawlerSettingsRepository } from './crawler-settings-repository.ts';
export { CrawlerSettings } from './crawler-settings-service.ts';
