import { CrawlApiError } from '@crawl/sdk';
import { CommanderError } from 'commander';
import type { CliContext } from './cli-context.ts';
import { type CliIo, processIo, UsageError } from './cli-io.ts';
import { buildProgram } from './program.ts';

/**
 * Runs `crawl` with `argv` (without the node and script paths) and resolves with the exit code:
 * 0 on success, 1 when the API or the network failed (with the API's message), 2 for a usage
 * mistake. Nothing here calls process.exit, so tests run it in-process.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const contexts: CliContext[] = [];
  const program = buildProgram(io, contexts);
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return contexts.at(-1)?.exitCode ?? 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    reportError(io, error, json);
    return error instanceof UsageError ? 2 : 1;
  }
}

function reportError(io: CliIo, error: unknown, json: boolean): void {
  if (json) {
    const body =
      error instanceof CrawlApiError
        ? { code: error.code, status: error.status, message: error.message, details: error.details, requestId: error.requestId ?? null }
        : { code: error instanceof UsageError ? 'USAGE' : 'ERROR', message: error instanceof Error ? error.message : String(error) };
    io.stderr.write(`${JSON.stringify({ error: body })}\n`);
    return;
  }
  let text = `crawl: ${error instanceof Error ? error.message : String(error)}`;
  if (error instanceof CrawlApiError) {
    text += ` (${error.code}, HTTP ${error.status})`;
    for (const detail of error.details) {
      const line = typeof detail === 'string' ? detail : JSON.stringify(detail);
      if (line !== error.message) text += `\n  - ${line}`;
    }
    if (error.requestId) text += `\n  request id: ${error.requestId}`;
  }
  io.stderr.write(`${text}\n`);
}
