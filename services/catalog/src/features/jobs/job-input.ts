import { CATALOG_LIMITS, CreateJobBody, type JobType } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import {
  isDeliveryZip,
  isMarketplaceDomain,
  MARKETPLACE_DOMAINS,
  resolveDetailsTarget,
  STOREFRONT_LANGUAGES,
  storefrontLanguage,
  takesDeliveryZip,
  type MarketplaceDomain,
} from '@crawl/marketplace';
import { Value } from '@sinclair/typebox/value';
import type { TargetDoc } from './job-model.ts';
import { assertRequiredFields } from './required-fields.ts';

export interface PreparedJob {
  type: JobType;
  targets: Array<Pick<TargetDoc, 'value' | 'asin'>>;
  config: Record<string, unknown>;
  /** Billable units per target: search `config.pages` (default 1), details 1. */
  unitsPerTarget: number;
}

const MAX_CONFIG_DEPTH = 6;

/** Keys that MongoDB would read as operators or paths never reach storage. */
function assertSafeKeys(value: unknown, path: string, depth: number): void {
  if (depth > MAX_CONFIG_DEPTH) throw errors.validation(`${path} is nested too deeply (at most ${MAX_CONFIG_DEPTH} levels)`);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) assertSafeKeys(item, `${path}[${index}]`, depth + 1);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('$') || key.includes('.') || key.includes('\0') || key === '') {
      throw errors.validation(`${path}.${key} is not an allowed key (keys must not be empty, start with "$" or contain ".")`);
    }
    assertSafeKeys(child, `${path}.${key}`, depth + 1);
  }
}

/**
 * `config.domain` picks the storefront; checked here so a job that could only fail `invalid_target`
 * is never created (nor charged). Read as the crawler reads it: any case, an optional scheme and
 * `www.`, a trailing slash.
 */
function assertMarketplaceDomain(domain: unknown, path: string): void {
  if (domain === undefined) return;
  const normalized =
    typeof domain === 'string'
      ? domain
          .trim()
          .toLowerCase()
          .replace(/^(https?:\/\/)?(www\.)?/, '')
          .replace(/\/$/, '')
      : '';
  if (isMarketplaceDomain(normalized)) return;
  const shown =
    typeof domain === 'string' ? JSON.stringify(domain.length > 100 ? `${domain.slice(0, 100)}…` : domain) : `(a ${domain === null ? 'null' : typeof domain})`;
  throw errors.validation(`${path} ${shown} is not a supported marketplace; use one of ${MARKETPLACE_DOMAINS.join(', ')}`);
}

/**
 * `config.sort`, `config.lang` and `config.deliveryZip` beyond their shape (the schema checks that):
 * sort only on search jobs; with `config.domain`, a language that storefront offers and a postal
 * code written as it writes them. Without a domain the storefront is the deployment's, so only the
 * shape is checked and the crawler applies the language where it is offered.
 */
function assertShopperOptions(type: JobType, config: Record<string, unknown>, prefix: string): void {
  if (config.sort !== undefined && type !== 'search') throw errors.validation(`${prefix}config.sort applies to search jobs only`);
  const raw =
    typeof config.domain === 'string'
      ? config.domain
          .trim()
          .toLowerCase()
          .replace(/^(https?:\/\/)?(www\.)?/, '')
          .replace(/\/$/, '')
      : undefined;
  const domain = raw !== undefined && isMarketplaceDomain(raw) ? (raw as MarketplaceDomain) : undefined;
  if (domain === undefined) return;
  if (typeof config.lang === 'string' && storefrontLanguage(domain, config.lang) === undefined) {
    const offered = STOREFRONT_LANGUAGES[domain].map((code) => code.replace('_', '-')).join(', ');
    throw errors.validation(`${prefix}config.lang ${JSON.stringify(config.lang)} is not offered by ${domain}; use one of ${offered}`);
  }
  if (typeof config.deliveryZip === 'string') {
    if (!takesDeliveryZip(domain)) throw errors.validation(`${prefix}config.deliveryZip: ${domain} takes no postal code as delivery location`);
    if (!isDeliveryZip(config.deliveryZip, domain)) {
      throw errors.validation(`${prefix}config.deliveryZip ${JSON.stringify(config.deliveryZip)} is not a postal code of ${domain}`);
    }
  }
}

/**
 * Validates and normalizes a job create body (also a schedule's crawlConfig): trims and
 * de-duplicates targets, resolves details targets to ASINs, bounds the config.
 */
export function prepareJobInput(body: unknown, options: { extraHosts?: readonly string[]; field?: string } = {}): PreparedJob {
  const prefix = options.field ? `${options.field}.` : '';
  // Before the schema check: its word for a bad name would be "Expected union value", and the
  // allowed names depend on the job type.
  const draft = (typeof body === 'object' && body !== null ? body : {}) as { type?: unknown; config?: unknown };
  if ((draft.type === 'search' || draft.type === 'details') && typeof draft.config === 'object' && draft.config !== null) {
    assertRequiredFields(draft.type, (draft.config as { require?: unknown }).require, `${prefix}config.require`);
  }
  if (!Value.Check(CreateJobBody, body)) {
    const first = Value.Errors(CreateJobBody, body).First();
    const where = first?.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : 'body';
    throw errors.validation(`${prefix}${where}: ${first?.message ?? 'invalid job definition'}`);
  }
  const config = body.config ?? {};
  assertSafeKeys(config, `${prefix}config`, 0);
  assertMarketplaceDomain(config.domain, `${prefix}config.domain`);
  assertShopperOptions(body.type, config, prefix);
  const size = Buffer.byteLength(JSON.stringify(config), 'utf8');
  if (size > CATALOG_LIMITS.configMaxBytes) {
    throw errors.validation(`${prefix}config must be at most ${CATALOG_LIMITS.configMaxBytes} bytes when serialized (got ${size})`);
  }

  const targets: PreparedJob['targets'] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  body.targets.forEach((raw, index) => {
    const value = raw.trim();
    if (value === '') {
      problems.push(`${prefix}targets[${index}] must not be blank`);
      return;
    }
    if (body.type === 'search') {
      const key = value.replace(/\s+/g, ' ').toLowerCase();
      if (seen.has(key)) return;
      seen.add(key);
      targets.push({ value });
      return;
    }
    const resolved = resolveDetailsTarget(value, { extraHosts: options.extraHosts ?? [] });
    if (!resolved.ok) {
      problems.push(
        `${prefix}targets[${index}] ${JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)} is not a valid ASIN or product URL: ${resolved.reason}`,
      );
      return;
    }
    if (seen.has(resolved.asin)) return;
    seen.add(resolved.asin);
    targets.push({ value, asin: resolved.asin });
  });
  if (problems.length > 0) throw errors.validation(problems[0] as string, problems);

  const pages = typeof config.pages === 'number' ? config.pages : 1;
  return { type: body.type, targets, config, unitsPerTarget: body.type === 'search' ? pages : 1 };
}
