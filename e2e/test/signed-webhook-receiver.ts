import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How far a delivery's `webhook-timestamp` may be from the receiver's clock (docs/webhooks.md). */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * The receiver's check of docs/webhooks.md, written from the documented scheme and not from the
 * sender's code: HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${raw body}` keyed with the
 * base64 part of the secret after `whsec_`, any of the space-separated `v1,<base64>` signatures,
 * compared in constant time, and a timestamp within 5 minutes.
 */
export function verifyDelivery(secret: string, headers: IncomingHttpHeaders, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const timestamp = String(headers['webhook-timestamp'] ?? '');
  const signatures = String(headers['webhook-signature'] ?? '');
  if (!id || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A webhook request as it arrived, and whether its signature held. */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

/** A webhook event as the payload carries it (docs/webhooks.md, "Payload"). */
export interface WebhookEvent<Data = unknown> {
  id: string;
  type: string;
  timestamp: string;
  data: Data;
}

/**
 * A webhook receiver on 127.0.0.1 that answers like a careful client: 200 for a delivery signed
 * with the endpoint's secret, 401 for anything else. The secret is set once the endpoint exists
 * (its URL is this receiver's, so the receiver starts first).
 */
export class SignedWebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  secret = '';
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<SignedWebhookReceiver> {
    let receiver: SignedWebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const self = receiver as SignedWebhookReceiver;
        const verified = self.secret !== '' && verifyDelivery(self.secret, req.headers, body);
        self.received.push({ headers: req.headers, body, verified });
        res.writeHead(verified ? 200 : 401).end();
      });
    });
    receiver = new SignedWebhookReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path = '/hooks/monitors'): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  /** The verified deliveries' events of `type`, in arrival order. */
  events<Data = unknown>(type: string): Array<{ headers: IncomingHttpHeaders; event: WebhookEvent<Data> }> {
    return this.received
      .filter((delivery) => delivery.verified)
      .map((delivery) => ({ headers: delivery.headers, event: JSON.parse(delivery.body) as WebhookEvent<Data> }))
      .filter(({ event }) => event.type === type);
  }

  /** Requests that failed verification. */
  get rejected(): ReceivedDelivery[] {
    return this.received.filter((delivery) => !delivery.verified);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
