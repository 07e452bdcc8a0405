import { Command } from 'commander';
import { CliContext, DEFAULT_BASE_URL, type GlobalOptions } from './cli-context.ts';
import type { CliIo } from './cli-io.ts';
import { actionFactory } from './commands/action.ts';
import { authCommands } from './commands/auth-commands.ts';
import { destinationsCommands } from './commands/destinations-commands.ts';
import { historyCommands } from './commands/history-commands.ts';
import { jobsCommands } from './commands/jobs-commands.ts';
import { listsCommands } from './commands/lists-commands.ts';
import { mcpCommand } from './commands/mcp-command.ts';
import { monitorsCommands } from './commands/monitors-commands.ts';
import { projectsCommands } from './commands/projects-commands.ts';
import { resultsCommands } from './commands/results-commands.ts';
import { schedulesCommands } from './commands/schedules-commands.ts';
import { usageCommand } from './commands/usage-command.ts';
import { webhooksCommands } from './commands/webhooks-commands.ts';

/** The `crawl` command tree. `contexts` receives the context each command ran with (its exit code, its output mode). */
export function buildProgram(io: CliIo, contexts: CliContext[]): Command {
  const program = new Command('crawl')
    .description('Crawl data service from the command line: run crawl jobs, follow them live, read and export their results.')
    .option('--json', 'print results as JSON (for scripts); errors go to stderr as JSON')
    .option('--base-url <url>', `API address (default: CRAWL_BASE_URL, the one you logged in to, or ${DEFAULT_BASE_URL})`)
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();
  const action = actionFactory((globals: GlobalOptions) => {
    const ctx = new CliContext(io, globals);
    contexts.push(ctx);
    return ctx;
  });
  authCommands(program, action);
  projectsCommands(program, action);
  jobsCommands(program, action);
  listsCommands(program, action);
  resultsCommands(program, action);
  historyCommands(program, action);
  schedulesCommands(program, action);
  monitorsCommands(program, action);
  usageCommand(program, action);
  webhooksCommands(program, action);
  destinationsCommands(program, action);
  mcpCommand(program, action);
  // Subcommands stop the process through the same override, so main() decides the exit code.
  for (const command of program.commands)
    walk(command, (c) => c.exitOverride().configureOutput({ writeOut: (t) => io.stdout.write(t), writeErr: (t) => io.stderr.write(t) }));
  return program;
}

function walk(command: Command, visit: (command: Command) => void): void {
  visit(command);
  for (const child of command.commands) walk(child, visit);
}
