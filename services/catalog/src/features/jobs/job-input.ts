import { CATALOG_LIMITS, type CreateJobBody, type JobConfig, type JobType } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import {
  isDeliveryZip,
  isMarketplaceDomain,
  MARKETPLACE_DOMAINS,
  KIND_TARGETS,
  resolveDetailsTarget,
  STOREFRONT_LANGUAGES,
  storefrontLanguage,
  takesDeliveryZip,
  type MarketplaceDomain,
} from '@crawl/marketplace';
import type { TargetDoc } from './job-model.ts';
import { assertTypeOptions } from './type-options.ts';
import { unitsPerTarget } from './job-units.ts';

/** The types whose targets are ASINs (kept as the target's `asin`). */
const ASIN_TARGETS: ReadonlySet<JobType> = new Set(['reviews', 'offers']);

/** What a target of each type must be, for the message when it is not. */
const TARGET_NAMES: Readonly<Record<Exclude<JobType, 'search' | 'details'>, string>> = {
  reviews: 'a valid ASIN or product / reviews URL',
  offers: 'a valid ASIN or product / offer-listing URL',
  bestsellers: 'a valid browse node id or best-seller URL',
  category: 'a valid browse node id or category URL',
  seller: 'a valid seller id or seller profile URL',
  autocomplete: 'a valid prefix',
};
import { assertRequiredFields } from './required-fields.ts';

export interface PreparedJob {
  type: JobType;
  targets: Array<Pick<TargetDoc, 'value' | 'asin' | 'key'>>;
  config: JobConfig;
  /** Billable units held per target (job-units.ts). */
  unitsPerTarget: number;
}

/** One target checked (JobInput.checkTarget): what a job stores and the key duplicates share, or why not. */
export type TargetCheck = { ok: true; key: string; target: PreparedJob['targets'][number] } | { ok: false; reason: string };

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

/** `config.domain` as the crawler reads it: any case, an optional scheme and `www.`, a trailing slash. */
function storefrontOf(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^(https?:\/\/)?(www\.)?/, '')
    .replace(/\/$/, '');
}

/**
 * `config.domain` picks the storefront; checked here so a job that could only fail `invalid_target`
 * is never created (nor charged).
 */
function assertMarketplaceDomain(domain: string | undefined, path: string): void {
  if (domain === undefined || isMarketplaceDomain(storefrontOf(domain))) return;
  const shown = JSON.stringify(domain.length > 100 ? `${domain.slice(0, 100)}…` : domain);
  throw errors.validation(`${path} ${shown} is not a supported marketplace; use one of ${MARKETPLACE_DOMAINS.join(', ')}`);
}

/**
 * `config.sort`, `config.lang` and `config.deliveryZip` beyond their shape (the schema checks that):
 * sort only on search jobs; with `config.domain`, a language that storefront offers and a postal
 * code written as it writes them. Without a domain the storefront is the deployment's, so only the
 * shape is checked and the crawler applies the language where it is offered.
 */
function assertShopperOptions(type: JobType, config: JobConfig, option: (name: string) => string): void {
  assertTypeOptions(type, config, option);
  const raw = config.domain === undefined ? undefined : storefrontOf(config.domain);
  const domain = raw !== undefined && isMarketplaceDomain(raw) ? (raw as MarketplaceDomain) : undefined;
  if (domain === undefined) return;
  if (config.lang !== undefined && storefrontLanguage(domain, config.lang) === undefined) {
    const offered = STOREFRONT_LANGUAGES[domain].map((code) => code.replace('_', '-')).join(', ');
    throw errors.validation(`${option('lang')} ${JSON.stringify(config.lang)} is not offered by ${domain}; use one of ${offered}`);
  }
  if (config.deliveryZip !== undefined) {
    if (!takesDeliveryZip(domain)) throw errors.validation(`${option('deliveryZip')}: ${domain} takes no postal code as delivery location`);
    if (!isDeliveryZip(config.deliveryZip, domain)) {
      throw errors.validation(`${option('deliveryZip')} ${JSON.stringify(config.deliveryZip)} is not a postal code of ${domain}`);
    }
  }
}

/**
 * The rules of a job definition beyond its schema, which the route already checked (a create
 * body, a schedule's crawlConfig, a retried job's stored definition): trims and de-duplicates
 * targets, resolves details targets to ASINs, bounds the config.
 */
export class JobInput {
  readonly #extraHosts: readonly string[];

  /** @param extraHosts hosts accepted in details URLs besides the storefronts (MARKETPLACE_EXTRA_HOSTS). */
  constructor(options: { extraHosts: readonly string[] }) {
    this.#extraHosts = options.extraHosts;
  }

  /**
   * @param field where the definition sits in the request (`crawlConfig`), prefixed to every message.
   * @param options.configAt where the request holds the config's options, when not in `config`: a
   * monitor names `domain` and `deliveryZip` at its top level (`''`), and messages name them there.
   */
  prepare(body: CreateJobBody, field?: string, options: { configAt?: string } = {}): PreparedJob {
    const prefix = field ? `${field}.` : '';
    const configPath = options.configAt ?? `${prefix}config`;
    const option = (name: string): string => (configPath === '' ? name : `${configPath}.${name}`);
    const config = body.config ?? {};
    // The schema leaves the entries of `require` open: the allowed names depend on the job type.
    assertRequiredFields(body.type, config.require, option('require'));
    assertSafeKeys(config, configPath || 'config', 0);
    assertMarketplaceDomain(config.domain, option('domain'));
    assertShopperOptions(body.type, config, option);
    const size = Buffer.byteLength(JSON.stringify(config), 'utf8');
    if (size > CATALOG_LIMITS.configMaxBytes) {
      throw errors.validation(`${configPath || 'config'} must be at most ${CATALOG_LIMITS.configMaxBytes} bytes when serialized (got ${size})`);
    }
    if ((body.targets === undefined) === (body.targetListId === undefined)) {
      throw errors.validation(`${prefix}targets or ${prefix}targetListId is required (exactly one of them)`);
    }
    // A list's targets were checked on upload; the job takes them when it is created (JobLifecycle).
    const targets = this.#targets(body, prefix);
    return { type: body.type, targets, config, unitsPerTarget: unitsPerTarget(body.type, config) };
  }

  /**
   * One target as a job reads it: trimmed, resolved (an ASIN, a node or seller id, a folded
   * keyword) and checked. `key` is what duplicates share; `reason` says why a target is refused,
   * in the words of a job's 400 after the target itself.
   */
  checkTarget(type: JobType, raw: string): TargetCheck {
    const value = raw.trim();
    if (value === '') return { ok: false, reason: 'must not be blank' };
    if (value.length > CATALOG_LIMITS.targetMaxLength) return { ok: false, reason: `must be at most ${CATALOG_LIMITS.targetMaxLength} characters` };
    if (type === 'search') return { ok: true, key: value.replace(/\s+/g, ' ').toLowerCase(), target: { value } };
    if (type !== 'details') {
      const resolved = KIND_TARGETS[type](value, { extraHosts: this.#extraHosts });
      if (!resolved.ok) return { ok: false, reason: `is not ${TARGET_NAMES[type]}: ${resolved.reason}` };
      return { ok: true, key: resolved.id, target: ASIN_TARGETS.has(type) ? { value, asin: resolved.id } : { value, key: resolved.id } };
    }
    const resolved = resolveDetailsTarget(value, { extraHosts: this.#extraHosts });
    if (!resolved.ok) return { ok: false, reason: `is not a valid ASIN or product URL: ${resolved.reason}` };
    return { ok: true, key: resolved.asin, target: { value, asin: resolved.asin } };
  }

  #targets(body: CreateJobBody, prefix: string): PreparedJob['targets'] {
    const targets: PreparedJob['targets'] = [];
    const seen = new Set<string>();
    const problems: string[] = [];
    (body.targets ?? []).forEach((raw, index) => {
      const checked = this.checkTarget(body.type, raw);
      if (!checked.ok) {
        const value = raw.trim();
        const shown = value === '' ? '' : ` ${JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)}`;
        problems.push(`${prefix}targets[${index}]${shown} ${checked.reason}`);
        return;
      }
      if (seen.has(checked.key)) return;
      seen.add(checked.key);
      targets.push(checked.target);
    });
    if (problems.length > 0) throw errors.validation(problems[0] as string, problems);
    return targets;
  }
}
