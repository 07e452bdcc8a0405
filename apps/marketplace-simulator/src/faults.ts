import { SPECIAL_ASINS } from './asin.ts';
import { uniformDraw } from './rng.ts';

export const FAULT_KINDS = [
  'captcha',
  'robot',
  'api-services',
  '429',
  '503',
  'reset',
  'interstitial',
  'challenge',
  'challenge-200',
  'waf-captcha',
  'error-page',
  'error-page-500',
  'signin',
  'unrecognized',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The kinds `blockRate` spreads its draws over, in equal shares: the pages bot defences answer with. */
export const BLOCK_KINDS = ['captcha', 'robot', 'interstitial', 'challenge'] as const satisfies readonly FaultKind[];
/** A fault as written in `x-sim-fault`, `sim_fault` or a rule: a kind, `slow:<ms>`, or `none`. */
export type FaultSpec = FaultKind | `slow:${number}` | 'none';

export interface FaultRule {
  /** Matches search requests whose keyword contains this text (case-insensitive). */
  keyword?: string;
  /** Matches product requests for this ASIN. */
  asin?: string;
  /** Matches the request path (pathname plus query), by substring or RegExp. */
  path?: string | RegExp;
  fault: FaultSpec;
  /** Apply to the first `times` requests of a URL only; afterwards it is served normally. */
  times?: number;
}

export interface FaultConfig {
  /** Share of requests answered with the HTTP 200 captcha page (0–1). */
  captchaRate?: number;
  rate429?: number;
  rate503?: number;
  robotRate?: number;
  resetRate?: number;
  /** Bot-manager interstitial, HTTP 200 (meta refresh with `bm-verify`). */
  interstitialRate?: number;
  /** WAF JavaScript challenge, HTTP 202 with `x-amzn-waf-action: challenge`. */
  challengeRate?: number;
  /** The same challenge as HTTP 200 without the header, as some CDNs pass it on. */
  challenge200Rate?: number;
  /** WAF captcha, HTTP 405 with `x-amzn-waf-action: captcha`. */
  wafCaptchaRate?: number;
  /** The storefront's error page with HTTP 200. */
  errorPageRate?: number;
  /** The storefront's error page with HTTP 500. */
  errorPage500Rate?: number;
  /** The sign-in page, HTTP 200. */
  signinRate?: number;
  /** A promotion page (HTTP 200) that is neither a product, nor results, nor a known block. */
  unrecognizedRate?: number;
  /** Share of requests answered with a block page, spread evenly over BLOCK_KINDS. */
  blockRate?: number;
  /** Delay added to every request. */
  slowMs?: number;
  /** Checked before the built-in rules; the first match wins. */
  rules?: FaultRule[];
  /** The documented keyword/ASIN rules (default true). */
  builtInRules?: boolean;
  /** Retry-After of 429 answers; default 1. */
  retryAfterSeconds?: number;
}

/** Keywords and ASINs that always misbehave the same way; see docs/marketplace.md. */
export const BUILT_IN_RULES: readonly FaultRule[] = [
  { keyword: 'blocked', fault: 'captcha' },
  { keyword: 'robotcheck', fault: 'robot' },
  { keyword: 'apiservices', fault: 'api-services' },
  { keyword: 'flaky', fault: '503', times: 1 },
  { keyword: 'throttled', fault: '429', times: 1 },
  { keyword: 'slowsearch', fault: 'slow:300' },
  { keyword: 'interstitial', fault: 'interstitial' },
  { keyword: 'wafcaptcha', fault: 'waf-captcha' },
  { keyword: 'challenge', fault: 'challenge' },
  { keyword: 'errorpage', fault: 'error-page' },
  { keyword: 'signin', fault: 'signin' },
  { keyword: 'unrecognized', fault: 'unrecognized' },
  { asin: SPECIAL_ASINS.blocked, fault: 'captcha' },
  { asin: SPECIAL_ASINS.flaky, fault: '503', times: 1 },
  { asin: SPECIAL_ASINS.throttled, fault: '429', times: 1 },
  { asin: SPECIAL_ASINS.reset, fault: 'reset', times: 1 },
  { asin: SPECIAL_ASINS.slow, fault: 'slow:300' },
  { asin: SPECIAL_ASINS.interstitial, fault: 'interstitial' },
  { asin: SPECIAL_ASINS.challenge, fault: 'challenge' },
  { asin: SPECIAL_ASINS.wafCaptcha, fault: 'waf-captcha' },
  { asin: SPECIAL_ASINS.errorPage, fault: 'error-page' },
  { asin: SPECIAL_ASINS.signin, fault: 'signin' },
  { asin: SPECIAL_ASINS.oddPage, fault: 'unrecognized' },
];

export interface RequestFacts {
  keyword?: string;
  asin?: string;
  /** Path plus query without `sim_*` parameters: identifies "the same URL" across retries. */
  pathKey: string;
  /** 1 for the first request of `pathKey`, 2 for the first retry, … */
  attempt: number;
  /** Per-request override from `x-sim-fault` / `sim_fault`, comma-separated. */
  explicit?: string;
}

export interface FaultDecision {
  delayMs: number;
  fault?: FaultKind;
}

const KINDS: ReadonlySet<string> = new Set(FAULT_KINDS);

/** The settings of FaultConfig that are a share of requests (0–1). */
export type FaultRateName = Exclude<keyof FaultConfig, 'slowMs' | 'rules' | 'builtInRules' | 'retryAfterSeconds'>;
type RateName = Exclude<FaultRateName, 'blockRate'>;

/**
 * The random rates in the order they take their share of the draw. New kinds go last, so a seed
 * fails the same requests as before under a configuration that does not use them.
 */
const RATES: readonly (readonly [RateName, FaultKind])[] = [
  ['captchaRate', 'captcha'],
  ['rate429', '429'],
  ['rate503', '503'],
  ['robotRate', 'robot'],
  ['resetRate', 'reset'],
  ['interstitialRate', 'interstitial'],
  ['challengeRate', 'challenge'],
  ['challenge200Rate', 'challenge-200'],
  ['wafCaptchaRate', 'waf-captcha'],
  ['errorPageRate', 'error-page'],
  ['errorPage500Rate', 'error-page-500'],
  ['signinRate', 'signin'],
  ['unrecognizedRate', 'unrecognized'],
];

/** Parses `slow:200,captcha`-style lists; unknown entries are ignored. */
export function parseFaultList(text: string): { delayMs: number; fault?: FaultKind; none: boolean } {
  let delayMs = 0;
  let fault: FaultKind | undefined;
  let none = false;
  for (const raw of text.split(',')) {
    const item = raw.trim().toLowerCase();
    const slow = /^slow:(\d{1,6})$/.exec(item);
    if (slow) delayMs += Number(slow[1]);
    else if (item === 'none') none = true;
    else if (KINDS.has(item)) fault ??= item as FaultKind;
  }
  return fault === undefined ? { delayMs, none } : { delayMs, fault, none };
}

function ruleMatches(rule: FaultRule, facts: RequestFacts): boolean {
  if (rule.times !== undefined && facts.attempt > rule.times) return false;
  if (rule.keyword !== undefined && !(facts.keyword ?? '').toLowerCase().includes(rule.keyword.toLowerCase())) return false;
  if (rule.asin !== undefined && facts.asin !== rule.asin.toUpperCase()) return false;
  if (rule.path !== undefined) {
    const ok = typeof rule.path === 'string' ? facts.pathKey.includes(rule.path) : rule.path.test(facts.pathKey);
    if (!ok) return false;
  }
  return rule.keyword !== undefined || rule.asin !== undefined || rule.path !== undefined;
}

/**
 * What to do with a request: an explicit per-request fault wins, then rules, then the random
 * rates. The random draw depends only on (seed, URL, attempt), so a given seed fails the same
 * requests whatever the interleaving of concurrent clients.
 */
export function decideFault(facts: RequestFacts, config: FaultConfig, seed: number): FaultDecision {
  const explicit = facts.explicit ? parseFaultList(facts.explicit) : { delayMs: 0, none: false };
  let delayMs = explicit.delayMs + (config.slowMs ?? 0);
  if (explicit.fault) return { delayMs, fault: explicit.fault };
  if (explicit.none) return { delayMs: explicit.delayMs };

  const rules = [...(config.rules ?? []), ...(config.builtInRules === false ? [] : BUILT_IN_RULES)];
  for (const rule of rules) {
    if (!ruleMatches(rule, facts)) continue;
    const parsed = parseFaultList(rule.fault);
    delayMs += parsed.delayMs;
    return parsed.fault ? { delayMs, fault: parsed.fault } : { delayMs };
  }

  const draw = uniformDraw(`${facts.pathKey}\u0000${facts.attempt}`, seed);
  let threshold = 0;
  for (const [name, fault] of RATES) {
    threshold += config[name] ?? 0;
    if (draw < threshold) return { delayMs, fault };
  }
  const blockRate = config.blockRate ?? 0;
  if (draw < threshold + blockRate) {
    // Where the draw falls inside blockRate's share picks the kind: still one draw per attempt.
    const index = Math.min(BLOCK_KINDS.length - 1, Math.floor(((draw - threshold) / blockRate) * BLOCK_KINDS.length));
    return { delayMs, fault: BLOCK_KINDS[index] };
  }
  return { delayMs };
}
