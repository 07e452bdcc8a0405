import { isAbsolute, resolve } from 'node:path';
import { CrawlClient } from '@crawl/sdk';
import { type CliIo, UsageError } from './cli-io.ts';
import { CredentialsStore, credentialsPath, type StoredCredentials } from './config/credentials-store.ts';
import { Output } from './output/output.ts';

export const DEFAULT_BASE_URL = 'http://localhost:3000';

/** The options every command takes. */
export interface GlobalOptions {
  json?: boolean;
  baseUrl?: string;
}

/** What a command runs with: its output, the stored login, and an API client built from them. */
export class CliContext {
  readonly io: CliIo;
  readonly output: Output;
  readonly store: CredentialsStore;
  /** Set by a command that printed its result but should still fail (a waited job that failed). */
  exitCode = 0;
  private readonly options: GlobalOptions;

  constructor(io: CliIo, options: GlobalOptions) {
    this.io = io;
    this.options = options;
    this.output = new Output(io, options.json === true);
    this.store = new CredentialsStore(credentialsPath(io.env));
  }

  /** `--base-url`, then CRAWL_BASE_URL, then the URL logged in to, then localhost:3000. */
  baseUrl(stored: StoredCredentials | undefined = this.store.read()): string {
    return this.options.baseUrl ?? this.io.env.CRAWL_BASE_URL ?? stored?.baseUrl ?? DEFAULT_BASE_URL;
  }

  /** A client without a token, for login and register. */
  anonymousClient(): CrawlClient {
    return this.newClient(this.baseUrl(), undefined);
  }

  /** A client with the token of `crawl login` (or CRAWL_TOKEN); without one the command stops with a hint. */
  client(): CrawlClient {
    const stored = this.store.read();
    const token = this.io.env.CRAWL_TOKEN || stored?.token;
    if (!token) throw new UsageError('not logged in: run `crawl login --base-url URL --email E --password P` first (or set CRAWL_TOKEN)');
    return this.newClient(this.baseUrl(stored), token);
  }

  /** A path the user typed, relative to where they typed it. */
  path(file: string): string {
    return isAbsolute(file) ? file : resolve(this.io.cwd, file);
  }

  private newClient(baseUrl: string, token: string | undefined): CrawlClient {
    return new CrawlClient({
      baseUrl,
      ...(token ? { token } : {}),
      onRetry: ({ status, delayMs }) => this.output.note(this.output.colors.dim(`HTTP ${status}: retrying in ${(delayMs / 1000).toFixed(1)}s`)),
    });
  }
}
