import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const loggerModule = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** Runs a script in a child Node with the logger module, returns its stdout and how long it ran. */
function runChild(script: string): Promise<{ stdout: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve({ stdout, ms: Date.now() - started }));
  });
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string });

describe('createLogger on stdout (JSON)', () => {
  it('gathers lines into larger writes but loses none and keeps their order: a process that exits at once still prints every line', async () => {
    // 500 lines are many buffers' worth: some leave while logging, the rest at exit, all in order.
    const { stdout } = await runChild(
      `import { createLogger } from ${JSON.stringify(loggerModule)};
       const log = createLogger('info', 'test', { format: 'json' });
       for (let i = 0; i < 500; i += 1) log.info({ i }, 'line ' + i);
       process.exit(0);`,
    );
    expect(lines(stdout).map((line) => line.msg)).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i}`));
  });

  it('writes a lone line of a quiet process within a second, without waiting for more', async () => {
    const { stdout } = await runChild(
      `import { createLogger } from ${JSON.stringify(loggerModule)};
       const log = createLogger('info', 'test', { format: 'json' });
       log.info('alone');
       await new Promise((resolve) => setTimeout(resolve, 1200));
       // Left by a signal, which runs no exit handlers: only the periodic flush can have written it.
       process.kill(process.pid, 'SIGKILL');`,
    );
    expect(lines(stdout).map((line) => line.msg)).toEqual(['alone']);
  });
});
