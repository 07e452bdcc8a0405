import { defineConfig } from '@crawl/config';
import { UpstreamRateConfig } from '@crawl/contracts';
import { Type, type Static } from '@sinclair/typebox';

export const CrawlerConfig = defineConfig({
  MARKETPLACE: Type.Union([Type.Literal('live'), Type.Literal('simulator')], {
    default: 'live',
    description: '`live` crawls MARKETPLACE_BASE_URL; `simulator` starts the local marketplace simulator in this process and crawls it (offline demo).',
  }),
  MARKETPLACE_BASE_URL: Type.String({
    minLength: 1,
    default: 'https://www.amazon.com',
    description:
      'Origin crawled when a job sets no `config.domain`. Any storefront of MARKETPLACES, or another origin (a simulator) which is then allowed too.',
  }),
  MARKETPLACE_EXTRA_HOSTS: Type.String({
    default: '',
    description:
      'Comma-separated hosts (host or host:port) the crawler may request besides the storefronts and the host of MARKETPLACE_BASE_URL (redirect targets included).',
  }),
  SIMULATOR_PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 0,
    description: 'Port of the in-process simulator when MARKETPLACE=simulator (0: any free port).',
  }),
  ...UpstreamRateConfig,
  RATE_SETTING_REFRESH_MS: Type.Integer({
    minimum: 1_000,
    default: 15_000,
    description:
      'How often the worker reads the admin-set upstream rate from billing (GET /internal/billing/crawler-settings); a change reaches every replica within this time.',
  }),
  CRAWL_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 4,
    description: 'Targets crawled at the same time by this process (fetch concurrency: pages being fetched or waiting to be parsed).',
  }),
  PARSE_THREADS: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 256,
      description:
        'Worker threads extracting pages (parse concurrency), started on demand. Unset: one per core (`os.availableParallelism()`) in a crawler-worker process of its own, none in the all-in-one (its crawl is rate-bound and a thread costs ~95 MB); 0: parse on the event loop.',
    }),
  ),
  PARSE_QUEUE: Type.Integer({
    minimum: 0,
    maximum: 1024,
    default: 4,
    description:
      'Fetched pages handed to the parse threads beyond one per thread; further pages wait in their fetch lane, so the pool holds at most threads + this many.',
  }),
  PARSE_THREAD_HEAP_MB: Type.Integer({
    minimum: 32,
    default: 256,
    description: 'Old-generation heap of each parse thread; a page needing more fails as `parse_error` and the thread is replaced.',
  }),
  FETCH_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 5_000, description: 'TCP/TLS connect timeout per upstream request.' }),
  FETCH_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 20_000,
    description: 'Time allowed for one upstream request (headers and whole body, redirects included).',
  }),
  MAX_RESPONSE_BYTES: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024, description: 'Largest page accepted, counted after decompression.' }),
  MAX_REDIRECTS: Type.Integer({ minimum: 0, maximum: 10, default: 3, description: 'Redirects followed per request; only to allowed marketplace hosts.' }),
  MAX_FETCH_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 10,
    default: 4,
    description: 'Tries per page for transient failures (timeouts, 5xx, 429, block pages) before the target fails.',
  }),
  FETCH_BACKOFF_MS: Type.Integer({ minimum: 1, default: 2_000, description: 'Base of the exponential backoff between tries (doubled per try, jittered).' }),
  FETCH_MAX_BACKOFF_MS: Type.Integer({
    minimum: 1,
    default: 60_000,
    description: 'Cap of the backoff, and the longest Retry-After the worker waits for; a longer one ends the tries.',
  }),
  INFRA_RETRY_MAX_DELAY_MS: Type.Integer({
    minimum: 100,
    default: 30_000,
    description:
      'Longest wait between tries of a task while catalog, its database or Redis is unavailable (exponential from 1 s); such tries never spend a crawl attempt.',
  }),
  INFRA_RETRY_WINDOW_MS: Type.Integer({
    minimum: 1_000,
    default: 300_000,
    description:
      'How long a task keeps retrying an unavailable catalog before a failure counts as an attempt. A finished crawl retries delivering its report without limit.',
  }),
  PROXY_URLS: Type.String({ default: '', description: 'Comma-separated HTTP(S) proxies (http://user:pass@host:port), rotated per session. Empty: direct.' }),
  PROXY_REST_AFTER_BLOCKS: Type.Integer({ minimum: 1, default: 3, description: 'Consecutive blocked responses after which a proxy is rested.' }),
  PROXY_REST_MS: Type.Integer({ minimum: 1_000, default: 600_000, description: 'How long a rested proxy is left out of the rotation.' }),
  SESSION_MAX_USES: Type.Integer({
    minimum: 1,
    default: 50,
    description: 'Requests per crawl session (header profile, cookie jar, proxy) before it is replaced.',
  }),
});
export type CrawlerConfig = Static<typeof CrawlerConfig>;
