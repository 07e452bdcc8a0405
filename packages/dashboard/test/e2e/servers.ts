import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICE_NAMES } from '@crawl/contracts';
import { startTestService, type TestService } from '@crawl/server/testing';

/** Settings of the all-in-one the browser drives: the simulator at full speed, the sandbox checkout, a local webhook receiver allowed. */
export const DASHBOARD_TEST_ENV: Record<string, string> = {
  MARKETPLACE: 'simulator',
  UPSTREAM_RATE_PER_MINUTE: '60000',
  UPSTREAM_BURST: '50',
  CRAWL_CONCURRENCY: '4',
  FETCH_BACKOFF_MS: '20',
  MAX_FETCH_ATTEMPTS: '1',
  SHUTDOWN_GRACE_MS: '1000',
  PAYMENT_PROVIDER: 'sandbox',
  WEBHOOK_REQUIRE_HTTPS: 'false',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
};

export interface RunningServer {
  url: string;
  service: TestService;
  close(): Promise<void>;
}

/** The whole service in this process (gateway included, so /app is served), on a loopback port. */
export async function startAllInOne(): Promise<RunningServer> {
  const service = await startTestService({ targets: [...SERVICE_NAMES], env: DASHBOARD_TEST_ENV });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { url, service, close: () => service.close() };
}

export interface WebhookReceiver {
  url: string;
  received: Array<{ headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** An HTTP endpoint that accepts every webhook delivery and keeps it. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: WebhookReceiver['received'] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
