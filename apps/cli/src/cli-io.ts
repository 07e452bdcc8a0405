/** A stream the CLI writes to; `isTTY` decides colours and progress bars. */
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Where relative paths (`--targets-file`, `-o`) are resolved. */
  cwd: string;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    // `pnpm crawl …` runs in the repository root; INIT_CWD is where the user typed it.
    cwd: process.env.npm_lifecycle_event === 'crawl' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd(),
  };
}

/** A mistake in how the command was called (exit code 2), as opposed to a failure the API reported (exit code 1). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
