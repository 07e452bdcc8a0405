import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers: a response, or `hang` (never answer; the sender's timeout fires). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A local webhook receiver on 127.0.0.1 for tests: records every request and answers from a
 * script (`answers` are used in order, then `fallback`).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  readonly answers: Answer[] = [];
  fallback: Answer = { status: 200, body: 'ok' };
  readonly #server: Server;
  readonly #hanging = new Set<ServerResponse>();

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (receiver as WebhookReceiver).#handle(
          { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') },
          res,
        );
      });
    });
    receiver = new WebhookReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  get hanging(): number {
    return this.#hanging.size;
  }

  #handle(request: ReceivedRequest, res: ServerResponse): void {
    this.requests.push(request);
    const answer = this.answers.shift() ?? this.fallback;
    if (answer === 'hang') {
      this.#hanging.add(res);
      res.on('close', () => this.#hanging.delete(res));
      return;
    }
    res.writeHead(answer.status, answer.headers ?? {});
    res.end(answer.body ?? '');
  }

  /** Requests whose body parses to an event of this type. */
  events(type?: string): Array<ReceivedRequest & { event: { id: string; type: string; timestamp: string; data: any } }> {
    return this.requests.map((r) => ({ ...r, event: JSON.parse(r.body) })).filter((r) => type === undefined || r.event.type === type);
  }

  async close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
