import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Where webhooks may be sent. Pure rules (URL shape, address ranges) plus a resolver step that
 * checks every address a name resolves to; the delivery then connects to the checked address
 * (see http-sender.ts), so a DNS answer that changes between check and connect cannot reach a
 * private address.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses (node:dns lookup with `all: true` by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface UrlRules {
  /** Only https URLs (default). */
  requireHttps: boolean;
  /** Lifts the address rule (development and tests only). */
  allowPrivate: boolean;
}

export class WebhookUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookUrlError';
  }
}

export interface CheckedUrl {
  url: URL;
  /** The host name without brackets (IPv6 literals unbracketed). */
  hostname: string;
  /** Set when the host is an IP literal. */
  literal: ResolvedAddress | null;
}

const BLOCKED_NAMES = [/^localhost$/, /\.localhost$/, /^metadata\.google\.internal$/, /^metadata$/, /\.internal$/, /\.local$/];

/** Syntax and scheme rules; no network. @throws WebhookUrlError */
export function checkUrlShape(raw: string, rules: UrlRules): CheckedUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookUrlError('url must use https');
  if (rules.requireHttps && url.protocol !== 'https:') throw new WebhookUrlError('url must use https');
  if (url.username !== '' || url.password !== '') throw new WebhookUrlError('url must not contain credentials');
  if (url.hash !== '') throw new WebhookUrlError('url must not contain a fragment');
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (hostname === '') throw new WebhookUrlError('url must name a host');
  const family = isIP(hostname);
  const literal: ResolvedAddress | null = family === 0 ? null : { address: hostname, family: family === 6 ? 6 : 4 };
  if (!rules.allowPrivate) {
    if (literal) {
      const blocked = blockedReason(literal.address);
      if (blocked) throw new WebhookUrlError(`url points to a ${blocked} address`);
    } else {
      const name = hostname.toLowerCase().replace(/\.$/, '');
      if (BLOCKED_NAMES.some((re) => re.test(name))) throw new WebhookUrlError('url points to a local or internal host name');
      if (!name.includes('.')) throw new WebhookUrlError('url host must be a fully qualified domain name');
    }
  }
  return { url, hostname, literal };
}

/**
 * Resolves the URL's host (IP literals as they are) and checks every address. Returns the
 * addresses to connect to. @throws WebhookUrlError
 */
export async function resolveTarget(checked: CheckedUrl, rules: UrlRules, resolver: Resolver): Promise<ResolvedAddress[]> {
  if (checked.literal) return [checked.literal];
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(checked.hostname);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new WebhookUrlError(`url host ${checked.hostname} could not be resolved${code ? ` (${code})` : ''}`);
  }
  if (addresses.length === 0) throw new WebhookUrlError(`url host ${checked.hostname} could not be resolved`);
  if (!rules.allowPrivate) {
    for (const a of addresses) {
      const blocked = blockedReason(a.address);
      if (blocked) throw new WebhookUrlError(`url host ${checked.hostname} resolves to a ${blocked} address (${a.address})`);
    }
  }
  return addresses;
}

/** Shape + resolution + address rules in one step. */
export async function checkWebhookUrl(raw: string, rules: UrlRules, resolver: Resolver): Promise<{ checked: CheckedUrl; addresses: ResolvedAddress[] }> {
  const checked = checkUrlShape(raw, rules);
  return { checked, addresses: await resolveTarget(checked, rules, resolver) };
}

// ---------------------------------------------------------------------------------------------
// Address ranges

type V4Range = readonly [base: number, bits: number, label: string];

const ip4 = (text: string): number => text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);

const V4_BLOCKED: readonly V4Range[] = [
  [ip4('0.0.0.0'), 8, 'unspecified ("this network")'],
  [ip4('10.0.0.0'), 8, 'private'],
  [ip4('100.64.0.0'), 10, 'carrier-grade NAT'],
  [ip4('127.0.0.0'), 8, 'loopback'],
  [ip4('169.254.0.0'), 16, 'link-local (cloud metadata)'],
  [ip4('172.16.0.0'), 12, 'private'],
  [ip4('192.0.0.0'), 24, 'reserved (IETF protocol assignments)'],
  [ip4('192.0.2.0'), 24, 'reserved (documentation)'],
  [ip4('192.88.99.0'), 24, 'reserved (6to4 relay)'],
  [ip4('192.168.0.0'), 16, 'private'],
  [ip4('198.18.0.0'), 15, 'reserved (benchmarking)'],
  [ip4('198.51.100.0'), 24, 'reserved (documentation)'],
  [ip4('203.0.113.0'), 24, 'reserved (documentation)'],
  [ip4('224.0.0.0'), 4, 'multicast'],
  [ip4('240.0.0.0'), 4, 'reserved (incl. broadcast)'],
];

function v4Blocked(value: number): string | null {
  for (const [base, bits, label] of V4_BLOCKED) {
    const size = 2 ** (32 - bits);
    if (value >= base && value < base + size) return label;
  }
  return null;
}

/** 16 bytes of an IPv6 address (zone id dropped), or null when the text is not one. */
export function parseIPv6(text: string): number[] | null {
  let address = text.split('%')[0] ?? '';
  if (isIP(address) !== 6) return null;
  // An embedded dotted quad (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = address.lastIndexOf(':');
  const last = address.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = ip4(last);
    address = `${address.slice(0, lastColon + 1)}${((v4 >>> 16) & 0xffff).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(halves[0]);
  const right = parse(halves[1]);
  const groups = halves.length === 2 ? [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right] : left;
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  return groups.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
}

const bytesToV4 = (b: number[], offset: number): number => (((b[offset] ?? 0) << 24) >>> 0) + ((b[offset + 1] ?? 0) << 16) + ((b[offset + 2] ?? 0) << 8) + (b[offset + 3] ?? 0);

function v6Blocked(b: number[]): string | null {
  const zeroUpTo = (n: number) => b.slice(0, n).every((x) => x === 0);
  const b0 = b[0] ?? 0;
  const b1 = b[1] ?? 0;
  if (zeroUpTo(15) && b[15] === 0) return 'unspecified';
  if (zeroUpTo(15) && b[15] === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d carry an IPv4 address.
  if (zeroUpTo(10) && b[10] === 0xff && b[11] === 0xff) return v4Blocked(bytesToV4(b, 12)) ?? null;
  if (zeroUpTo(12)) return 'reserved (IPv4-compatible)';
  // NAT64 64:ff9b::/96 reaches the embedded IPv4 address; 64:ff9b:1::/48 is local-use NAT64.
  if (b0 === 0x00 && b1 === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (b.slice(4, 12).every((x) => x === 0)) return v4Blocked(bytesToV4(b, 12));
    if (b[4] === 0x00 && b[5] === 0x01) return 'reserved (local NAT64)';
  }
  // 6to4 2002::/16 embeds an IPv4 address in bytes 2–5.
  if (b0 === 0x20 && b1 === 0x02) return v4Blocked(bytesToV4(b, 2));
  if (b0 === 0x20 && b1 === 0x01 && b[2] === 0x00 && b[3] === 0x00) return 'reserved (Teredo)';
  if (b0 === 0x20 && b1 === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved (documentation)';
  if (b0 === 0x01 && b1 === 0x00 && b.slice(2, 8).every((x) => x === 0)) return 'reserved (discard)';
  if ((b0 & 0xfe) === 0xfc) return 'private (unique local)';
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return 'link-local';
  if (b0 === 0xfe && (b1 & 0xc0) === 0xc0) return 'reserved (site-local)';
  if (b0 === 0xff) return 'multicast';
  return null;
}

/** Why an IP address may not receive webhooks (a label such as `loopback`), or null when it is public. */
export function blockedReason(address: string): string | null {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 4) return v4Blocked(ip4(address));
  if (family === 6) {
    const bytes = parseIPv6(address);
    return bytes ? v6Blocked(bytes) : 'invalid';
  }
  return 'invalid';
}

export const isPublicAddress = (address: string): boolean => blockedReason(address) === null;
