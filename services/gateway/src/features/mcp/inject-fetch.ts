import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/**
 * A fetch that answers from this process's own routes (`app.inject`), for a CrawlClient that
 * acts as an MCP caller: the request goes through the same pipeline as one from outside (token
 * check, throttles, forwarding to services in other processes), with no socket and no need to
 * know the address the process is reached at. Answers stream, so an export is not held whole.
 */
export function injectFetch(app: FastifyInstance, remoteAddress: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      remoteAddress,
      payloadAsStream: true,
      ...(body ? { payload: body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : (Readable.toWeb(answer.stream()) as ReadableStream<Uint8Array>), { status: answer.statusCode, headers });
  };
}
