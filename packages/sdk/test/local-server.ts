import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  url: string;
  /** Requests received, in order. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

/** A plain HTTP server on a free loopback port, answering with `handler`: stands in for the API where a test needs exact wire behaviour. */
export async function startLocalServer(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    void Promise.resolve(handler(req, res)).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function envelope(code: string, message: string, details: unknown[] = []) {
  return { success: false, error: { code, message, details } };
}

/** One SSE frame as the server writes it. */
export function sseFrame(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function job(status: string, targets: Array<{ value: string; status: string }>, extra: Record<string, unknown> = {}) {
  return {
    id: 'job_1',
    projectId: 'prj_1',
    organizationId: 'org_1',
    type: 'search',
    status,
    targets,
    config: {},
    creditsReserved: 10,
    bullJobId: 'b1',
    resultCount: 0,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    ...extra,
  };
}
