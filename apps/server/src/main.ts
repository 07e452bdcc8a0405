// The process the binary runs (bin.ts imports it once tracing, if any, has started).
import { ConfigError } from '@crawl/config';
import { runProcess } from '@crawl/runtime';
import { AdminUsageError, runAdminCommand } from './admin-command.ts';
import { modulesFor } from './all-modules.ts';
import { selectBackends } from './backends.ts';
import { parseTargets, TargetError } from './targets.ts';

try {
  const args = process.argv.slice(2);
  if (args[0] === 'admin') {
    const output = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };
    process.exitCode = await runAdminCommand(args.slice(1), process.env, output);
  } else {
    const targets = parseTargets(args, process.env.TARGET);
    await runProcess({ modules: await modulesFor(targets), backends: selectBackends });
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof TargetError || error instanceof AdminUsageError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
