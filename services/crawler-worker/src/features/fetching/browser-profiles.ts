import { createRequire } from 'node:module';
import type { HeaderGenerator, HeaderGeneratorOptions } from 'header-generator';
import type { HeaderProfile } from './header-profiles.ts';

/**
 * Header profiles from `header-generator`: a Bayesian network trained on real browser traffic
 * (shipped in the package, no network access), so user agents, client hints and header order stay
 * as current and as consistent with each other as the package's data. See ADR 0008.
 */

const OPTIONS: Partial<HeaderGeneratorOptions> = {
  browsers: ['chrome', 'edge', 'firefox', 'safari'],
  devices: ['desktop'],
  operatingSystems: ['windows', 'macos'],
  locales: ['en-US'],
  httpVersion: '2',
};

/** Stand-ins that make the generator place the per-request headers in the browser's order. */
const PLACEHOLDERS = { referer: 'https://placeholder.invalid/', cookie: 'placeholder=1' };

// Loading the package and building its network costs ~80 ms; a process that never crawls (or a
// test that never takes a session) should not pay it.
const require = createRequire(import.meta.url);
let generator: HeaderGenerator | undefined;

function sharedGenerator(): HeaderGenerator {
  if (!generator) {
    const { HeaderGenerator: Generator } = require('header-generator') as typeof import('header-generator');
    generator = new Generator(OPTIONS);
  }
  return generator;
}

/**
 * The network was trained on real traffic, some of it plain http where Chromium sends no client
 * hints, and it draws each header on its own: a Chromium user agent without matching `sec-ch-ua`
 * and `sec-ch-ua-platform` (over https), or client hints from Firefox or Safari, is a bot signal.
 * About 1 sample in 250 is like that (measured), so such a sample is drawn again.
 */
function consistent(headers: Readonly<Record<string, string>>): boolean {
  const ua = headers['user-agent'] ?? '';
  const chromium = /Chrome\/(\d+)/.exec(ua);
  if (!chromium) return !Object.keys(headers).some((name) => name.startsWith('sec-ch-ua'));
  const platform = ua.includes('Windows') ? '"Windows"' : ua.includes('Macintosh') ? '"macOS"' : undefined;
  const hints = headers['sec-ch-ua'] ?? '';
  return hints.includes(`"Chromium";v="${chromium[1]}"`) && headers['sec-ch-ua-platform'] === platform && headers['sec-ch-ua-mobile'] === '?0';
}

/** A fresh browser identity for one session. */
export function generatedProfile(): HeaderProfile {
  let sample = sharedGenerator().getHeaders({}, PLACEHOLDERS);
  for (let redraws = 0; redraws < 20 && !consistent(sample); redraws += 1) sample = sharedGenerator().getHeaders({}, PLACEHOLDERS);
  const { referer: _referer, cookie: _cookie, ...headers } = sample;
  return { headers: Object.freeze(headers), order: Object.freeze(Object.keys(sample)) };
}
