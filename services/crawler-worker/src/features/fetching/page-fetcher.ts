import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { BLOCK_SCAN_CHARS } from '@crawl/marketplace';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { textDecoderFor } from '../shared/text-decoder.ts';
import { navigationHeaders, scriptRequestHeaders } from './header-profiles.ts';
import type { CrawlSession } from './session-pool.ts';

export type FetchErrorKind = 'timeout' | 'network' | 'too_large' | 'redirect_refused' | 'too_many_redirects' | 'url_refused' | 'aborted';

/** A request that produced no page. `kind` tells the retry layer whether trying again can help. */
export class FetchError extends Error {
  readonly kind: FetchErrorKind;
  constructor(kind: FetchErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FetchError';
    this.kind = kind;
  }
}

export interface FetchedPage {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The decoded page. The fetcher decodes it on first read only: with a parse pool it never is here. */
  readonly html: string;
  /** The start of a large page decoded, as much as block detection reads; absent on a small page. */
  head?: string | undefined;
  /** After redirects. */
  url: string;
  redirects: number;
  /** Decoded body size in bytes. */
  bytes: number;
  /**
   * The body's bytes (after decompression) and their charset, so a parse thread can decode the page
   * itself: the bytes are moved to it rather than the string copied. Moved means emptied here.
   */
  body?: Uint8Array | undefined;
  charset?: string | undefined;
}

export interface PageRequest {
  url: string;
  session: CrawlSession;
  lang?: string | undefined;
  referer?: string | undefined;
  signal?: AbortSignal | undefined;
  /** A page script's POST (the location widget) instead of a navigation: its body and own headers. */
  post?: ScriptPost | undefined;
}

export interface ScriptPost {
  body: string;
  headers: Record<string, string>;
}

/** The port the retry layer uses; `UndiciPageFetcher` is the real one. */
export interface PageFetcher {
  fetch(request: PageRequest): Promise<FetchedPage>;
  close(): Promise<void>;
}

export interface UndiciPageFetcherOptions {
  /** The only URLs ever requested, redirect targets included. */
  isAllowedUrl: (url: URL) => boolean;
  connectTimeoutMs: number;
  /** Whole request: headers, body and redirects. */
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const zstdAvailable = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';
export const ACCEPT_ENCODING = zstdAvailable ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';

function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return zstdAvailable ? (zlib as unknown as { createZstdDecompress(): Transform }).createZstdDecompress() : undefined;
    default:
      return undefined;
  }
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function charsetOf(contentType: string | undefined): string {
  const match = /charset=["']?([\w-]+)/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase() ?? 'utf-8';
}

function decodeText(buffer: Buffer, charset: string): string {
  return textDecoderFor(charset).decode(buffer);
}

/** Enough bytes for the characters `detectBlock` reads, whatever their UTF-8 width (≤ 3 bytes per UTF-16 unit). */
const BLOCK_SCAN_BYTES = 3 * BLOCK_SCAN_CHARS;

/**
 * At least the first BLOCK_SCAN_CHARS characters of the page (all `detectBlock` reads), decoding
 * BLOCK_SCAN_CHARS bytes at a time: a mostly ASCII page needs one step, not the three that the
 * widest characters could need.
 */
function decodeHead(buffer: Buffer, charset: string): string {
  // A fresh decoder: it keeps the state of a character cut between two steps.
  const decoder = textDecoderFor(charset);
  let head = '';
  for (let at = 0; at < buffer.length && head.length < BLOCK_SCAN_CHARS; at += BLOCK_SCAN_CHARS) {
    const end = Math.min(buffer.length, at + BLOCK_SCAN_CHARS);
    head += decoder.decode(buffer.subarray(at, end), { stream: end < buffer.length });
  }
  return head;
}

/**
 * A page whose text is decoded when first read. A parse thread takes the bytes and decodes them
 * itself, so decoding here too would spend a full decode of every page (≈1 ms per MB) and its garbage
 * on the event loop for nothing; block detection reads only the decoded head.
 */
function lazilyDecodedPage(fields: Pick<FetchedPage, 'status' | 'headers' | 'url' | 'redirects'>, buffer: Buffer, charset: string): FetchedPage {
  const bytes = buffer.length;
  let html: string | undefined;
  return {
    ...fields,
    bytes,
    body: buffer,
    charset,
    head: bytes > BLOCK_SCAN_BYTES ? decodeHead(buffer, charset) : undefined,
    get html(): string {
      if (html === undefined) {
        // Once moved to a parse thread the buffer is detached (empty): the text is gone from here.
        if (buffer.byteLength !== bytes) throw new Error('the page body was moved to a parse thread; its text is no longer here');
        html = decodeText(buffer, charset);
      }
      return html;
    },
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/**
 * Fetches marketplace pages with undici: per-session headers and cookies, optional proxy, bounded
 * redirects that never leave the allowed hosts, a size cap counted after decompression (so a
 * compression bomb stops early), and one deadline for the whole exchange.
 */
export class UndiciPageFetcher implements PageFetcher {
  readonly #options: UndiciPageFetcherOptions;
  readonly #dispatchers = new Map<string, Dispatcher>();

  constructor(options: UndiciPageFetcherOptions) {
    this.#options = options;
  }

  async fetch(input: PageRequest): Promise<FetchedPage> {
    let url = this.#checkUrl(input.url, 'url_refused');
    const deadline = AbortSignal.timeout(this.#options.timeoutMs);
    const signal = input.signal ? AbortSignal.any([input.signal, deadline]) : deadline;
    let referer = input.referer;
    let post = input.post;
    try {
      for (let redirects = 0; ; redirects += 1) {
        const navigation = {
          profile: input.session.profile,
          lang: input.lang,
          acceptEncoding: ACCEPT_ENCODING,
          referer,
          cookie: input.session.jar.header(url),
        };
        const response = await request(url, {
          method: post ? 'POST' : 'GET',
          headers: post ? scriptRequestHeaders({ ...navigation, origin: url.origin, extra: post.headers }) : navigationHeaders(navigation),
          ...(post ? { body: post.body } : {}),
          dispatcher: this.#dispatcher(input.session.proxy),
          headersTimeout: this.#options.timeoutMs,
          bodyTimeout: this.#options.timeoutMs,
          signal,
        });
        const headers = response.headers as Record<string, string | string[] | undefined>;
        input.session.jar.store(url, headers['set-cookie']);
        const location = headerValue(headers, 'location');
        if (REDIRECTS.has(response.statusCode) && location) {
          await response.body.dump();
          if (redirects >= this.#options.maxRedirects)
            throw new FetchError('too_many_redirects', `more than ${this.#options.maxRedirects} redirects from ${input.url}`);
          const next = this.#checkUrl(new URL(location, url).toString(), 'redirect_refused');
          referer = undefined;
          // As a browser does: after a 301/302/303 a POST goes on as a GET; 307/308 repeat it.
          if (post && response.statusCode <= 303) post = undefined;
          url = next;
          continue;
        }
        const { buffer } = await this.#readBody(response.body, headers);
        const charset = charsetOf(headerValue(headers, 'content-type'));
        return lazilyDecodedPage({ status: response.statusCode, headers, url: url.toString(), redirects }, buffer, charset);
      }
    } catch (error) {
      if (error instanceof FetchError) throw error;
      if (input.signal?.aborted) throw new FetchError('aborted', 'request aborted', { cause: error });
      if (deadline.aborted) throw new FetchError('timeout', `no complete answer within ${this.#options.timeoutMs} ms from ${url.host}`, { cause: error });
      const code = (error as { code?: string }).code;
      if (code && TIMEOUT_CODES.has(code)) throw new FetchError('timeout', `${code} from ${url.host}`, { cause: error });
      throw new FetchError('network', `${code ?? (error as Error).message} from ${url.host}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#dispatchers.values()].map((d) => d.close()));
    this.#dispatchers.clear();
  }

  #checkUrl(text: string, kind: 'url_refused' | 'redirect_refused'): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new FetchError(kind, `not a URL: ${text.slice(0, 200)}`);
    }
    if (!this.#options.isAllowedUrl(url))
      throw new FetchError(
        kind,
        `${kind === 'redirect_refused' ? 'redirect to' : 'request to'} ${url.protocol}//${url.host} refused: not an allowed marketplace host`,
      );
    return url;
  }

  async #readBody(body: Readable, headers: Record<string, string | string[] | undefined>): Promise<{ buffer: Buffer }> {
    const cap = this.#options.maxResponseBytes;
    const declared = Number(headerValue(headers, 'content-length'));
    if (Number.isFinite(declared) && declared > cap) {
      body.destroy();
      throw new FetchError('too_large', `response of ${declared} bytes exceeds the ${cap}-byte cap`);
    }
    const encodings = (headerValue(headers, 'content-encoding') ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e && e !== 'identity')
      .reverse();
    const decoders: Transform[] = [];
    for (const encoding of encodings) {
      const decoder = decoderFor(encoding);
      if (!decoder) {
        body.destroy();
        throw new FetchError('network', `unsupported content-encoding ${encoding}`);
      }
      decoders.push(decoder);
    }
    let output: Readable = body;
    if (decoders.length > 0) {
      output = decoders[decoders.length - 1] as Transform;
      // Errors of any stage destroy the last one, which the loop below then throws.
      pipeline([body, ...decoders], () => undefined);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of output) {
        total += (chunk as Buffer).length;
        if (total > cap) {
          output.destroy();
          body.destroy();
          throw new FetchError('too_large', `response exceeds the ${cap}-byte cap (after decompression)`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof FetchError) throw error;
      const code = (error as { code?: string }).code ?? '';
      if (code.startsWith('Z_') || code.startsWith('ERR__') || /zlib|brotli|zstd|incorrect header|unexpected end/i.test((error as Error).message)) {
        throw new FetchError('network', `corrupt ${encodings.join('+')} body: ${(error as Error).message}`, { cause: error });
      }
      throw error;
    }
    return { buffer: Buffer.concat(chunks, total) };
  }

  #dispatcher(proxy: string | undefined): Dispatcher {
    const key = proxy ?? '';
    let dispatcher = this.#dispatchers.get(key);
    if (!dispatcher) {
      const connect = { timeout: this.#options.connectTimeoutMs };
      dispatcher = proxy ? new ProxyAgent({ uri: proxy, connect, proxyTls: connect, requestTls: connect }) : new Agent({ connect, keepAliveTimeout: 30_000 });
      this.#dispatchers.set(key, dispatcher);
    }
    return dispatcher;
  }
}
