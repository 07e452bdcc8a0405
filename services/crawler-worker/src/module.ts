import { defineModule } from '@crawl/modules';

/**
 * Fetches and parses marketplace pages for queued targets. It owns no durable data: results go
 * to catalog through its internal API.
 */
export const crawlerWorkerModule = defineModule({
  name: 'crawler-worker',
  dependencies: ['catalog'],
  init() {
    return {};
  },
});
