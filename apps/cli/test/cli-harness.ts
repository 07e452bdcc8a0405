import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { main } from '../src/main.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI in this process against `baseUrl`, logged in by CRAWL_TOKEN, its output captured; a
 * config home of its own so no test touches the real one. `tty` makes both streams look like a terminal.
 */
export async function runCli(argv: string[], options: { baseUrl: string; tty?: boolean; columns?: number }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const stream = (append: (text: string) => void) =>
    Object.assign(
      new Writable({
        write(chunk, _encoding, callback) {
          append(String(chunk));
          callback();
        },
      }),
      { isTTY: options.tty === true, columns: options.columns ?? 120 },
    );
  const home = mkdtempSync(join(tmpdir(), 'crawl-cli-test-'));
  const code = await main(argv, {
    stdout: stream((t) => (stdout += t)),
    stderr: stream((t) => (stderr += t)),
    stdin: Readable.from([]),
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), CRAWL_TOKEN: 'test-token', CRAWL_BASE_URL: options.baseUrl },
    cwd: home,
  });
  return { code, stdout, stderr };
}

export interface StubRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface StubApi {
  url: string;
  /** Requests received, in order, with their JSON bodies (text bodies as text). */
  requests: StubRequest[];
  close(): Promise<void>;
}

/** A stand-in for the API on a free loopback port: `handler` answers each request (its body already parsed). */
export async function startStubApi(handler: (request: StubRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>): Promise<StubApi> {
  const requests: StubRequest[] = [];
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const url = new URL(req.url ?? '/', 'http://stub');
    // Uploads (text/plain, text/csv) are kept as the text they are.
    const parsed = text && !req.headers['content-type']?.startsWith('text/') ? JSON.parse(text) : text || undefined;
    const request = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), body: parsed };
    requests.push(request);
    try {
      await handler(request, res, req);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
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

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-test' });
  res.end(status === 204 ? undefined : JSON.stringify(body));
}

export function errorEnvelope(code: string, message: string, details: unknown[] = []) {
  return { success: false, error: { code, message, details } };
}
