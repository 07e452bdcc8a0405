import { isMarketplaceDomain } from '@crawl/marketplace';
import type { FaultConfig, FaultRateName } from './faults.ts';
import { createSimulator, type SimulatorOptions } from './server.ts';

// Standalone entry: `node --experimental-strip-types apps/marketplace-simulator/src/main.ts`.
// SIMULATOR_PORT (4010), SIMULATOR_HOST (127.0.0.1), SIMULATOR_DOMAIN, SIMULATOR_PAGE_SIZE,
// SIMULATOR_SEED, the fault rates of RATE_VARIABLES, and drift: SIMULATOR_DRIFT=1 turns it on,
// SIMULATOR_DRIFT_STEP_MS (3600000) and SIMULATOR_DRIFT_SHARE (0.05) tune it.

/** The fault rates settable from the environment. */
const RATE_VARIABLES: Record<string, FaultRateName> = {
  SIMULATOR_CAPTCHA_RATE: 'captchaRate',
  SIMULATOR_429_RATE: 'rate429',
  SIMULATOR_503_RATE: 'rate503',
  SIMULATOR_BLOCK_RATE: 'blockRate',
  SIMULATOR_INTERSTITIAL_RATE: 'interstitialRate',
  SIMULATOR_CHALLENGE_RATE: 'challengeRate',
  SIMULATOR_UNRECOGNIZED_RATE: 'unrecognizedRate',
};

function rate(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new Error(`${name} must be a number between 0 and 1`);
  return parsed;
}

function ratesFromEnv(): FaultConfig {
  const faults: FaultConfig = {};
  for (const [name, setting] of Object.entries(RATE_VARIABLES)) {
    const value = rate(name);
    if (value !== undefined) faults[setting] = value;
  }
  return faults;
}

function driftFromEnv(): SimulatorOptions['drift'] {
  const on = (process.env.SIMULATOR_DRIFT ?? '').trim().toLowerCase();
  if (on === '' || on === '0' || on === 'false' || on === 'off') return false;
  if (on !== '1' && on !== 'true' && on !== 'on') throw new Error('SIMULATOR_DRIFT must be 1 or 0');
  const step = process.env.SIMULATOR_DRIFT_STEP_MS;
  const share = process.env.SIMULATOR_DRIFT_SHARE;
  return {
    ...(step !== undefined && step !== '' ? { stepMs: Number(step) } : {}),
    ...(share !== undefined && share !== '' ? { changeShare: Number(share) } : {}),
  };
}

const env = process.env;
const options: SimulatorOptions = {
  port: Number(env.SIMULATOR_PORT ?? 4010),
  host: env.SIMULATOR_HOST ?? '127.0.0.1',
  seed: Number(env.SIMULATOR_SEED ?? 1),
  pageSize: env.SIMULATOR_PAGE_SIZE === 'small' ? 'small' : 'full',
  faults: ratesFromEnv(),
  drift: driftFromEnv(),
};
const domain = env.SIMULATOR_DOMAIN;
if (domain !== undefined && domain !== '') {
  if (!isMarketplaceDomain(domain)) throw new Error(`SIMULATOR_DOMAIN ${domain} is not a marketplace domain`);
  options.domain = domain;
}

const simulator = await createSimulator(options);
console.log(JSON.stringify({ msg: 'marketplace simulator listening', url: simulator.url }));

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ msg: 'marketplace simulator stopping', signal }));
  simulator.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
