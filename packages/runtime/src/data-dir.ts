import { chmodSync, mkdirSync } from 'node:fs';

/**
 * DATA_DIR holds the embedded databases (password hashes) and the generated JWT secret: it is
 * created readable by its owner only, and one left readable by others is tightened on start.
 */
export function ensurePrivateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}
