import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { BLOCK_SCAN_CHARS } from '@crawl/marketplace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedUrlRule } from './allowed-urls.ts';
import { CookieJar } from './cookie-jar.ts';
import type { HeaderProfile } from './header-profiles.ts';
import { FetchError, UndiciPageFetcher, type UndiciPageFetcherOptions } from './page-fetcher.ts';
import type { CrawlSession } from './session-pool.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; origin: string; host: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}` };
}

const chrome: HeaderProfile = {
  headers: {
    'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36',
    accept: 'text/html,*/*;q=0.8',
    'sec-fetch-site': 'none',
    'sec-fetch-mode': 'navigate',
  },
  order: [],
};
const session = (): CrawlSession => ({
  id: 1,
  profile: chrome,
  jar: new CookieJar(),
  proxy: undefined,
  uses: 0,
  retired: false,
  location: undefined,
  locationSet: false,
});
const page = (text: string) => `<html><head><title>${text}</title></head><body>${text}</body></html>`;

describe('UndiciPageFetcher against a local server', () => {
  let main: Awaited<ReturnType<typeof listen>>;
  let other: Awaited<ReturnType<typeof listen>>;
  const seen: IncomingMessage[] = [];
  const fetchers: UndiciPageFetcher[] = [];

  const fetcherWith = (options: Partial<UndiciPageFetcherOptions> = {}) => {
    const fetcher = new UndiciPageFetcher({
      isAllowedUrl: allowedUrlRule(main.origin, []),
      connectTimeoutMs: 1000,
      timeoutMs: 2000,
      maxResponseBytes: 64 * 1024,
      maxRedirects: 2,
      ...options,
    });
    fetchers.push(fetcher);
    return fetcher;
  };

  beforeAll(async () => {
    other = await listen((_req, res) => res.end(page('elsewhere')));
    main = await listen((req, res) => {
      seen.push(req);
      const url = new URL(req.url ?? '/', 'http://x');
      switch (url.pathname) {
        case '/plain':
          res.setHeader('content-type', 'text/html; charset=utf-8');
          return res.end(page('plain ü'));
        case '/gzip':
          res.setHeader('content-encoding', 'gzip');
          return res.end(gzipSync(page('zipped')));
        case '/br':
          res.setHeader('content-encoding', 'br');
          return res.end(brotliCompressSync(page('brotli')));
        case '/bomb': {
          // 1 MB of zeros compresses to ~1 KB: only the decompressed size may count.
          res.setHeader('content-encoding', 'gzip');
          return res.end(gzipSync(Buffer.alloc(1024 * 1024)));
        }
        case '/big-declared':
          res.setHeader('content-length', String(10 * 1024 * 1024));
          return res.end();
        case '/big-streamed':
          res.write(Buffer.alloc(40 * 1024, 'a'));
          res.write(Buffer.alloc(40 * 1024, 'b'));
          return res.end();
        case '/slow':
          return void setTimeout(() => res.end(page('late')), 1500).unref();
        case '/redirect-local':
          res.statusCode = 302;
          res.setHeader('location', '/plain');
          return res.end();
        case '/redirect-off-host':
          res.statusCode = 301;
          res.setHeader('location', `${other.origin}/anything`);
          return res.end();
        case '/redirect-loop':
          res.statusCode = 302;
          res.setHeader('location', '/redirect-loop');
          return res.end();
        case '/set-cookie':
          res.setHeader('set-cookie', ['session-id=abc123; Path=/; Max-Age=3600', 'i18n-prefs=EUR; Path=/']);
          return res.end(page('cookies set'));
        case '/large': {
          // A robot check marker near the top of a page larger than the block-detection window.
          res.setHeader('content-type', 'text/html; charset=utf-8');
          return res.end(`<html><head><title>Robot Check</title></head><body>${'é'.repeat(300 * 1024)}</body></html>`);
        }
        case '/echo':
          res.setHeader('content-type', 'application/json');
          return res.end(JSON.stringify(req.headers));
        default:
          res.statusCode = 404;
          return res.end(page('not here'));
      }
    });
  });

  afterAll(async () => {
    await Promise.all(fetchers.map((f) => f.close()));
    main.server.closeAllConnections();
    other.server.closeAllConnections();
    await new Promise((resolve) => main.server.close(resolve));
    await new Promise((resolve) => other.server.close(resolve));
  });

  it('fetches a page with browser headers and decodes its charset', async () => {
    const result = await fetcherWith().fetch({ url: `${main.origin}/plain`, session: session(), lang: 'de-DE' });
    expect(result.status).toBe(200);
    expect(result.html).toContain('plain ü');
    const echo = JSON.parse(
      (await fetcherWith().fetch({ url: `${main.origin}/echo`, session: session(), lang: 'de-DE', referer: `${main.origin}/plain` })).html,
    );
    expect(echo['user-agent']).toContain('Chrome/');
    expect(echo['accept-language']).toBe('de-DE,de;q=0.9,en;q=0.8');
    expect(echo['accept-encoding']).toMatch(/gzip, deflate, br/);
    expect(echo['sec-fetch-mode']).toBe('navigate');
    expect(echo.referer).toBe(`${main.origin}/plain`);
  });

  it('decodes a large page only when its text is read, with the head decoded for block checks', async () => {
    const result = await fetcherWith({ maxResponseBytes: 1024 * 1024 }).fetch({ url: `${main.origin}/large`, session: session() });
    expect(result.head).toMatch(/^<html><head><title>Robot Check<\/title>/);
    expect(result.head?.length).toBeLessThan(result.html.length);
    // Decoded in steps of BLOCK_SCAN_CHARS bytes (two-byte é's straddle the step): the text's own start, as long as block checks read.
    expect(result.head?.length).toBeGreaterThanOrEqual(BLOCK_SCAN_CHARS);
    expect(result.html.startsWith(result.head as string)).toBe(true);
    expect(result.html.endsWith('</body></html>')).toBe(true);
    expect(result.bytes).toBe(result.body?.byteLength);
    // A parse thread takes the bytes (the buffer is transferred): the text cannot be read here after that.
    const moved = await fetcherWith({ maxResponseBytes: 1024 * 1024 }).fetch({ url: `${main.origin}/large`, session: session() });
    structuredClone(moved.body, { transfer: [(moved.body as Uint8Array).buffer as ArrayBuffer] });
    expect(() => moved.html).toThrow(/moved to a parse thread/);
  });

  it('decodes gzip and brotli bodies', async () => {
    const fetcher = fetcherWith();
    expect((await fetcher.fetch({ url: `${main.origin}/gzip`, session: session() })).html).toContain('zipped');
    expect((await fetcher.fetch({ url: `${main.origin}/br`, session: session() })).html).toContain('brotli');
  });

  it('caps the response size by the declared length, the streamed length and the decompressed length', async () => {
    const fetcher = fetcherWith();
    for (const path of ['/big-declared', '/big-streamed', '/bomb']) {
      const error = await fetcher.fetch({ url: `${main.origin}${path}`, session: session() }).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(FetchError);
      expect((error as FetchError).kind, path).toBe('too_large');
    }
  });

  it('times out a response that takes too long', async () => {
    const error = await fetcherWith({ timeoutMs: 200 })
      .fetch({ url: `${main.origin}/slow`, session: session() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).kind).toBe('timeout');
  });

  it('follows redirects on the allowed host, refuses off-host ones and bounds their number', async () => {
    const fetcher = fetcherWith();
    const followed = await fetcher.fetch({ url: `${main.origin}/redirect-local`, session: session() });
    expect(followed).toMatchObject({ status: 200, url: `${main.origin}/plain`, redirects: 1 });

    const offHost = await fetcher.fetch({ url: `${main.origin}/redirect-off-host`, session: session() }).catch((e: unknown) => e);
    expect((offHost as FetchError).kind).toBe('redirect_refused');

    const loop = await fetcher.fetch({ url: `${main.origin}/redirect-loop`, session: session() }).catch((e: unknown) => e);
    expect((loop as FetchError).kind).toBe('too_many_redirects');
    expect(seen.filter((r) => r.url === '/redirect-loop').length).toBe(3);
  });

  it('never requests a URL outside the allowed hosts', async () => {
    const error = await fetcherWith()
      .fetch({ url: `${other.origin}/anything`, session: session() })
      .catch((e: unknown) => e);
    expect((error as FetchError).kind).toBe('url_refused');
  });

  it('keeps cookies per session and sends them back', async () => {
    const fetcher = fetcherWith();
    const s = session();
    await fetcher.fetch({ url: `${main.origin}/set-cookie`, session: s });
    const echo = JSON.parse((await fetcher.fetch({ url: `${main.origin}/echo`, session: s })).html);
    expect(echo.cookie).toBe('session-id=abc123; i18n-prefs=EUR');
    const fresh = JSON.parse((await fetcher.fetch({ url: `${main.origin}/echo`, session: session() })).html);
    expect(fresh.cookie).toBeUndefined();
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await listen((_req, res) => res.end());
    const origin = closed.origin;
    await new Promise((resolve) => closed.server.close(resolve));
    const error = await fetcherWith({ isAllowedUrl: () => true })
      .fetch({ url: `${origin}/x`, session: session() })
      .catch((e: unknown) => e);
    expect((error as FetchError).kind).toBe('network');
  });
});
