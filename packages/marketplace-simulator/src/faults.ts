import { SPECIAL_ASINS } from './asin.ts';
import { uniformDraw } from './rng.ts';

export type FaultKind = 'captcha' | 'robot' | 'api-services' | '429' | '503' | 'reset';
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
  { asin: SPECIAL_ASINS.blocked, fault: 'captcha' },
  { asin: SPECIAL_ASINS.flaky, fault: '503', times: 1 },
  { asin: SPECIAL_ASINS.throttled, fault: '429', times: 1 },
  { asin: SPECIAL_ASINS.reset, fault: 'reset', times: 1 },
  { asin: SPECIAL_ASINS.slow, fault: 'slow:300' },
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

const KINDS: ReadonlySet<string> = new Set(['captcha', 'robot', 'api-services', '429', '503', 'reset']);

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
  const rates: [number | undefined, FaultKind][] = [
    [config.captchaRate, 'captcha'],
    [config.rate429, '429'],
    [config.rate503, '503'],
    [config.robotRate, 'robot'],
    [config.resetRate, 'reset'],
  ];
  for (const [rate, fault] of rates) {
    threshold += rate ?? 0;
    if (draw < threshold) return { delayMs, fault };
  }
  return { delayMs };
}
