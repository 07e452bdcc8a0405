import { connect } from 'node:net';

/** Whether something accepts TCP connections at `url`'s host and port (Redis's 6379 when none), within a second. */
export function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname || '127.0.0.1');
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The test Redis (`TEST_REDIS_URL`, else the local default) and whether it answers; in CI a missing one fails `what`. */
export async function testRedis(what: string): Promise<{ url: string; up: boolean }> {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const up = await reachable(url);
  if (!up && process.env.CI === 'true') throw new Error(`CI requires Redis for ${what} (none at ${url})`);
  return { url, up };
}
