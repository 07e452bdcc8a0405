import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService } from '@crawl/server/testing';
import { afterAll, describe, expect, it } from 'vitest';

/** The embedded databases hold password hashes; DATA_DIR holds the generated JWT secret. */
describe('DATA_DIR permissions', () => {
  const parent = mkdtempSync(join(tmpdir(), 'crawl-data-dir-'));
  const dataDir = join(parent, 'data');
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  const mode = (path: string) => statSync(path).mode & 0o777;
  const filesIn = (dir: string) => readdirSync(dir).map((name) => join(dir, name));

  /** Modes, by name, of DATA_DIR's entries while the all-in-one runs on it (secret generated there, a write in the WAL). */
  async function modesWhileRunning(): Promise<Record<string, number>> {
    const svc = await startTestService({ env: { DATA_DIR: dataDir, JWT_SECRET: '' } });
    try {
      await svc.registerUser();
      return Object.fromEntries([dataDir, ...filesIn(dataDir)].map((path) => [path === dataDir ? '.' : path.slice(dataDir.length + 1), mode(path)]));
    } finally {
      await svc.close();
    }
  }
  const ownerOnly = (names: string[]) => Object.fromEntries(names.map((name) => [name, name === '.' ? 0o700 : 0o600]));

  it('is created owner-only, with every database file (WAL and shared memory included) and the secret 0600', async () => {
    const modes = await modesWhileRunning();
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['.', 'auth.db', 'auth.db-shm', 'auth.db-wal', 'billing.db', 'catalog.db', 'jwt-secret']));
    expect(modes).toEqual(ownerOnly(Object.keys(modes)));
  });

  it('tightens a directory and files an earlier version left readable by others', async () => {
    chmodSync(dataDir, 0o755);
    for (const file of filesIn(dataDir)) chmodSync(file, 0o644);
    const modes = await modesWhileRunning();
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['.', 'auth.db', 'jwt-secret']));
    expect(modes).toEqual(ownerOnly(Object.keys(modes)));
  });
});
