import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

/**
 * Where the BullMQ adapter's tests find Redis: `TEST_REDIS_URL` (CI points it at the local
 * Redis), else a throwaway `redis:7` container through testcontainers where Docker runs. In CI a
 * missing server is an error; elsewhere the tests are skipped and say why. Tests share the server:
 * each uses its own key prefix and deletes its keys afterwards (never FLUSHALL).
 */
export interface RedisTestServer {
  url: string;
  stop(): Promise<void>;
}

export type RedisTestServerResult = { server: RedisTestServer } | { skipReason: string };

export async function redisTestServer(): Promise<RedisTestServerResult> {
  const fromEnv = process.env.TEST_REDIS_URL;
  if (fromEnv) return { server: { url: fromEnv, stop: async () => undefined } };
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('redis:7')
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forListeningPorts())
      .withStartupTimeout(60_000)
      .start();
    return {
      server: {
        url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
        stop: async () => {
          await container.stop();
        },
      },
    };
  } catch (error) {
    const reason = `no Redis server: TEST_REDIS_URL is unset and Docker is unavailable (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). Start Redis and set TEST_REDIS_URL=redis://127.0.0.1:6379 to test the Redis adapters.`;
    if (process.env.CI === 'true') throw new Error(`CI requires the Redis integration tests: ${reason}`);
    return { skipReason: reason };
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A private `redis-server` (no persistence) that a test may kill and start again on the same port. */
export interface PrivateRedis {
  url: string;
  port: number;
  kill(): Promise<void>;
  start(): Promise<void>;
}

export type PrivateRedisResult = { redis: PrivateRedis } | { skipReason: string };

export async function privateRedis(): Promise<PrivateRedisResult> {
  const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const failed = new Promise<Error>((resolve) => started.once('error', resolve));
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await listening(port))) {
      const error = await Promise.race([failed, new Promise<undefined>((r) => setTimeout(() => r(undefined), 50))]);
      if (error) throw error;
      if (Date.now() > deadline || started.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    }
  };
  const kill = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  try {
    await start();
  } catch (error) {
    const reason = `no redis-server binary to start a private Redis (${error instanceof Error ? error.message : String(error)})`;
    if (process.env.CI === 'true') throw new Error(`CI requires the Redis restart tests: ${reason}`);
    return { skipReason: reason };
  }
  return { redis: { url: `redis://127.0.0.1:${port}`, port, kill, start } };
}
export { redisTestConnections } from './redis-test-connections.ts';
