import { ConfigError } from '@crawl/config';
import { runProcess } from '@crawl/modules';
import { modulesFor } from './all-modules.ts';
import { selectBackends } from './backends.ts';
import { parseTargets, TargetError } from './targets.ts';

try {
  const targets = parseTargets(process.argv.slice(2), process.env.TARGET);
  await runProcess({ modules: await modulesFor(targets), backends: selectBackends });
} catch (error) {
  if (error instanceof ConfigError || error instanceof TargetError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
