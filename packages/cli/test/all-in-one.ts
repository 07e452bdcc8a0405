import { startTestService, type TestService } from '@crawl/server/testing';

export interface RunningApi {
  url: string;
  service: TestService;
  close(): Promise<void>;
}

/** The whole service in this process on a loopback port, crawling the built-in marketplace simulator at full speed. */
export async function startAllInOne(): Promise<RunningApi> {
  const service = await startTestService({
    targets: ['gateway', 'auth', 'catalog', 'billing', 'crawler-worker'],
    env: {
      MARKETPLACE: 'simulator',
      UPSTREAM_RATE_PER_MINUTE: '60000',
      UPSTREAM_BURST: '50',
      CRAWL_CONCURRENCY: '4',
      FETCH_BACKOFF_MS: '20',
      SHUTDOWN_GRACE_MS: '1000',
      // Webhook endpoints on loopback: there is no other network here.
      WEBHOOK_REQUIRE_HTTPS: 'false',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { url, service, close: () => service.close() };
}
