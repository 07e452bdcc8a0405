import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@crawl/config';
import type { Logger } from '@crawl/logging';
import { ensurePrivateDataDir } from './data-dir.ts';

export const MIN_SECRET_BYTES = 32;

export interface Secrets {
  jwtSecret: string;
  internalSecret: string;
}

function assertStrong(name: string, secret: string): void {
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    throw new ConfigError([`${name}: must be at least ${MIN_SECRET_BYTES} bytes (got ${Buffer.byteLength(secret, 'utf8')})`]);
  }
}

/** A generated secret kept under DATA_DIR so tokens survive restarts of the all-in-one. */
function persistedSecret(dataDir: string, logger: Logger): string {
  const file = join(dataDir, 'jwt-secret');
  ensurePrivateDataDir(dataDir);
  const existing = readIfPresent(file);
  if (existing !== undefined) {
    chmodSync(file, 0o600);
    return existing.trim();
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  logger.warn({ file }, 'JWT_SECRET is not set: generated one and stored it under DATA_DIR (set JWT_SECRET when running several processes)');
  return secret;
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function resolveSecrets(config: { JWT_SECRET?: string; INTERNAL_SECRET?: string; DATA_DIR: string }, logger: Logger): Secrets {
  if (config.JWT_SECRET !== undefined) assertStrong('JWT_SECRET', config.JWT_SECRET);
  if (config.INTERNAL_SECRET !== undefined) assertStrong('INTERNAL_SECRET', config.INTERNAL_SECRET);
  // Generated (and kept under DATA_DIR) only once something reads it: a process whose services
  // neither sign nor verify user tokens (billing, the crawler-worker) runs on INTERNAL_SECRET alone,
  // so its pods need not hold the secret that could forge any user's token.
  let jwtSecret = config.JWT_SECRET;
  const readJwtSecret = (): string => {
    jwtSecret ??= persistedSecret(config.DATA_DIR, logger);
    assertStrong('JWT_SECRET', jwtSecret);
    return jwtSecret;
  };
  const internalSecret =
    config.INTERNAL_SECRET ?? Buffer.from(hkdfSync('sha256', readJwtSecret(), 'crawl-data-service', 'internal-tokens', 32)).toString('base64url');
  return {
    get jwtSecret() {
      return readJwtSecret();
    },
    internalSecret,
  };
}
