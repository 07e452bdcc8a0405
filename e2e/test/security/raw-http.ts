import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before it closed the connection (or the wait ran out). */
  text: string;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
  /** Milliseconds from the first byte sent to the close (or to the end of the wait). */
  elapsedMs: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes bytes to the server as they are, no client library in between (a malformed request, a
 * body that never arrives), and collects what comes back until the server closes or `waitMs`.
 */
export function rawExchange(url: string, bytes: string, waitMs: number): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
  });
}

/** Splits one HTTP/1.1 response into its status, lower-cased headers and body. */
export function parseResponse(text: string): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: text.slice(split + 4) };
}
