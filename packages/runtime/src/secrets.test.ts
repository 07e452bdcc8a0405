import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@crawl/logging';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSecrets } from './secrets.ts';

const logger = createLogger('silent', 'test');
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'crawl-secrets-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('resolveSecrets', () => {
  const internal = 'an-internal-secret-of-at-least-32-bytes-0123';

  it('runs on INTERNAL_SECRET alone, generating no JWT secret until something reads it', () => {
    const dir = dataDir();
    const secrets = resolveSecrets({ INTERNAL_SECRET: internal, DATA_DIR: dir }, logger);
    expect(secrets.internalSecret).toBe(internal);
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(false);
    // A service that signs user tokens in such a process still gets a stable one.
    const generated = secrets.jwtSecret;
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(true);
    expect(secrets.jwtSecret).toBe(generated);
  });

  it('derives the internal secret from JWT_SECRET when unset, and refuses short secrets', () => {
    const jwt = 'a-jwt-secret-that-is-long-enough-0123456789';
    const secrets = resolveSecrets({ JWT_SECRET: jwt, DATA_DIR: dataDir() }, logger);
    expect(secrets.jwtSecret).toBe(jwt);
    expect(secrets.internalSecret).not.toBe(jwt);
    expect(resolveSecrets({ JWT_SECRET: jwt, DATA_DIR: dataDir() }, logger).internalSecret).toBe(secrets.internalSecret);
    expect(() => resolveSecrets({ JWT_SECRET: 'short', DATA_DIR: dataDir() }, logger)).toThrow(/JWT_SECRET/);
    expect(() => resolveSecrets({ INTERNAL_SECRET: 'short', DATA_DIR: dataDir() }, logger)).toThrow(/INTERNAL_SECRET/);
  });
});
