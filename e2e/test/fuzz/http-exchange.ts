import { type Agent, request as httpRequest } from 'node:http';
import type { ConcreteRequest } from './fuzz-world.ts';

export type Exchange =
  | { outcome: 'response'; status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number }
  | { outcome: 'timeout'; ms: number }
  /** The connection ended without a response. */
  | { outcome: 'no-response'; error: string; ms: number };

/** Largest response body kept; the checks only read error envelopes (small) and statuses. */
const KEEP_BYTES = 256 * 1024;

/**
 * Sends one request over a real socket (any method, any bytes, any Content-Type) and waits at
 * most `timeoutMs` for the whole response. A keep-alive socket the server had closed is retried
 * once on a fresh one, so a race with the server's idle timeout is not reported as a failure.
 */
export async function exchange(baseUrl: string, agent: Agent, request: ConcreteRequest, timeoutMs: number): Promise<Exchange> {
  const first = await attempt(baseUrl, agent, request, timeoutMs);
  if (first.outcome === 'no-response' && first.reusedSocket) return attempt(baseUrl, agent, request, timeoutMs);
  return first;
}

function attempt(baseUrl: string, agent: Agent, request: ConcreteRequest, timeoutMs: number): Promise<Exchange & { reusedSocket?: boolean }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Exchange & { reusedSocket?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const url = new URL(baseUrl);
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      agent,
      headers: { ...request.headers, ...(request.body ? { 'content-length': String(request.body.length) } : {}) },
    });
    const timer = setTimeout(() => {
      finish({ outcome: 'timeout', ms: elapsed() });
      req.destroy();
    }, timeoutMs);
    const chunks: Buffer[] = [];
    let answered: { status: number; headers: Record<string, string | string[] | undefined> } | undefined;
    const answer = () => answered && finish({ outcome: 'response', ...answered, body: Buffer.concat(chunks), ms: elapsed() });
    req.on('response', (res) => {
      answered = { status: res.statusCode ?? 0, headers: res.headers };
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < KEEP_BYTES) chunks.push(chunk);
        kept += chunk.length;
      });
      res.on('end', answer);
      res.on('error', answer);
    });
    // An answer followed by a reset (the server closing while the rest of a large body is sent) is still the answer.
    req.on('error', (error) => answer() ?? finish({ outcome: 'no-response', error: error.message, ms: elapsed(), reusedSocket: req.reusedSocket }));
    if (request.body) req.end(request.body);
    else req.end();
  });
}
