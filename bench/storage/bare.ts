// The baseline of the export figure: the bare export server (bare-server.ts) as a child process on
// 127.0.0.1 and a free port, holding the same rows as the service's big job, and a Bearer token
// (HS256) it accepts.
import { randomBytes } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { freePort, REPO_ROOT, startChild, type ChildServer } from './server.ts';

export interface BareServer extends ChildServer {
  /** A Bearer token the server's routes accept. */
  token: string;
  /** Path of the CSV / JSON export route. */
  exportPath(format: 'csv' | 'json'): string;
}

/** `label`, `rows`, `itemsPerReport`: the arguments of `resultTargets` the big job was filled with. */
export async function startBare(rowsOf: { label: string; rows: number; itemsPerReport: number }, startTimeoutMs: number): Promise<BareServer> {
  const port = await freePort();
  const secret = randomBytes(48).toString('base64url');
  const child = await startChild({
    name: 'the bare export server',
    args: ['bench/storage/bare-server.ts'],
    cwd: REPO_ROOT,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      BARE_JWT_SECRET: secret,
      BARE_LABEL: rowsOf.label,
      BARE_ROWS: String(rowsOf.rows),
      BARE_ITEMS_PER_REPORT: String(rowsOf.itemsPerReport),
    },
    port,
    readyPath: '/ready',
    startTimeoutMs,
  });
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: 24 * 3600 * 1000 });
  return { ...child, token: sign({ sub: 'bench', org: 'bench' }), exportPath: (format) => `/export/${format}` };
}
