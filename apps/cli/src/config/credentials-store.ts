import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `crawl login` keeps between runs. */
export interface StoredCredentials {
  baseUrl: string;
  token: string;
  email: string;
  /** ISO timestamp after which the token no longer works (access tokens last 7 days). */
  expiresAt: string;
}

/** `$XDG_CONFIG_HOME/crawl/credentials.json`, or `~/.config/crawl/credentials.json` when XDG_CONFIG_HOME is unset or not absolute (as the XDG spec says). */
export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg?.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'crawl', 'credentials.json');
}

/**
 * The token file: readable by its owner only (file 600, directory 700), since the token stands
 * for the user's password for seven days. Written to a temporary file and renamed, so a crash
 * never leaves half a file.
 */
export class CredentialsStore {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  read(): StoredCredentials | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = JSON.parse(text) as Partial<StoredCredentials>;
      return typeof parsed.token === 'string' && typeof parsed.baseUrl === 'string' ? (parsed as StoredCredentials) : undefined;
    } catch {
      return undefined;
    }
  }

  write(credentials: StoredCredentials): void {
    const dir = dirname(this.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }

  /** True when there was a file to remove. */
  remove(): boolean {
    const existed = this.read() !== undefined;
    rmSync(this.path, { force: true });
    return existed;
  }
}
