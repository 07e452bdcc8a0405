import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, listening } from '@crawl/redis/testing';

export interface DisposableMongo {
  url: string;
  /** Takes the server away, as an outage would. */
  kill(): Promise<void>;
}

export type DisposableMongoResult = { mongo: DisposableMongo } | { skipReason: string };

/**
 * A MongoDB-wire server this test may kill: a private FerretDB process when the binary is built
 * (scripts/ferretdb.sh), else a mongo:7 container where Docker runs.
 */
export async function disposableMongo(): Promise<DisposableMongoResult> {
  const binary = process.env.FERRETDB_BIN ?? join(process.env.GOPATH ?? join(homedir(), 'go'), 'bin', 'ferretdb');
  if (existsSync(binary)) {
    const port = await freePort();
    const state = mkdtempSync(join(tmpdir(), 'crawl-ferret-'));
    const child = spawn(
      binary,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${state}/`,
        `--state-dir=${state}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--debug-addr=-',
        '--telemetry=disable',
        '--log-level=error',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await listening(port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`FerretDB did not start on port ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return {
      mongo: {
        url: `mongodb://127.0.0.1:${port}/`,
        async kill() {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
          rmSync(state, { recursive: true, force: true });
        },
      },
    };
  }
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('mongo:7').withExposedPorts(27017).withWaitStrategy(Wait.forListeningPorts()).start();
    return { mongo: { url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/`, kill: async () => void (await container.stop()) } };
  } catch (error) {
    const reason = `no disposable MongoDB: FerretDB is not built (scripts/ferretdb.sh start builds it) and Docker is unavailable (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    if (process.env.CI === 'true') throw new Error(`CI requires the MongoDB integration tests: ${reason}`);
    return { skipReason: reason };
  }
}
