import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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
// Address ranges: the special-purpose registries as ipaddr.js keeps them. Only what it calls
// `unicast` may receive webhooks, so a range it learns about later is refused without a change here.

const LABELS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified ("this network")',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local (cloud metadata)',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  reserved: 'reserved (IETF, documentation, benchmarking or future use)',
  benchmarking: 'reserved (benchmarking)',
  teredo: 'reserved (Teredo)',
  deprecatedSiteLocal: 'reserved (site-local)',
  discard: 'reserved (discard)',
};

const label = (range: string): string => LABELS[range] ?? `reserved (${range})`;

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** IANA's global unicast block; nothing outside it (and outside the embedded forms) is routed publicly. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function v4Blocked(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === 'unicast' ? null : label(range);
}

/** The IPv4 address carried in the low 32 bits (mapped, translated, NAT64) or, for 6to4, bits 16–47. */
function embeddedV4(bytes: number[], offset: number): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4));
}

function v6Blocked(address: ipaddr.IPv6): string | null {
  const range = address.range();
  const bytes = address.toByteArray();
  // These forms reach the IPv4 address inside them, so that address decides.
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4Blocked(embeddedV4(bytes, 12));
  if (range === 'rfc6052') return address.match(NAT64_WELL_KNOWN) ? v4Blocked(embeddedV4(bytes, 12)) : 'reserved (local NAT64)';
  if (range === '6to4') return v4Blocked(embeddedV4(bytes, 2));
  if (range !== 'unicast') return label(range);
  if (address.match(IPV4_COMPATIBLE)) return 'reserved (IPv4-compatible)';
  if (!address.match(GLOBAL_UNICAST)) return 'reserved (not global unicast)';
  return null;
}

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d` (IPv4-mapped), which is another address than the
 * one the socket would reach; the WHATWG URL parser writes it as RFC 4291 reads it (`::7f00:1`).
 * The zone id only picks an interface, so it is dropped.
 */
function parseV6(text: string): ipaddr.IPv6 {
  const address = text.split('%')[0] ?? '';
  return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
}

/** Why an IP address may not receive webhooks (a label such as `loopback`), or null when it is public. */
export function blockedReason(address: string): string | null {
  // node:net is strict about the text (no `127.1` or hex shorthands); ipaddr.js would accept them.
  const family = isIP(address.split('%')[0] ?? '');
  try {
    if (family === 4) return v4Blocked(ipaddr.IPv4.parse(address));
    if (family === 6) return v6Blocked(parseV6(address));
  } catch {
    // A zone id on an IPv4 address: not an address anything could connect to.
  }
  return 'invalid';
}
