import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Owner only: the databases hold password hashes and tokens' subjects. */
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;

/** The files SQLite keeps for one database in WAL mode. */
function databaseFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];
}

/**
 * Makes a database's files readable by their owner only, before SQLite opens it. A new
 * directory is created 0700, a new database file 0600 (SQLite gives its -wal and -shm files
 * the database file's mode), and files left by an earlier version with looser modes are
 * tightened. A directory that already exists is left to its owner: it may be shared.
 */
export function prepareDatabaseFiles(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: DIRECTORY_MODE });
  // An empty file is a valid empty database; creating it here is what sets its mode.
  if (!existsSync(path)) closeSync(openSync(path, 'a', FILE_MODE));
  for (const file of databaseFiles(path)) {
    if (existsSync(file)) chmodSync(file, FILE_MODE);
  }
}
