import { Worker } from 'node:worker_threads';

/** How often the WAL is copied back into the database file (and so synced: the power-loss window). */
const CHECKPOINT_INTERVAL_MS = 100;

/**
 * The thread that checkpoints every file-backed store of this process. A checkpoint copies the
 * WAL into the database file and fsyncs both; with SQLite's automatic checkpoints that happens on
 * the request thread every ~1000 pages, and took 30-40% of the time of a write-heavy mix here. Stores
 * switch automatic checkpoints off and register their file with this one shared worker instead,
 * whose own connection runs PASSIVE checkpoints (they never block readers or the writer).
 * Plain JS, evaluated: the worker then loads no module and needs no loader or type stripping.
 */
const WORKER_SOURCE = `
const { DatabaseSync } = require('node:sqlite');
const { parentPort } = require('node:worker_threads');
const connections = new Map();
parentPort.on('message', ({ op, path, id }) => {
  let entry = connections.get(path);
  if (op === 'open') {
    if (!entry) {
      const db = new DatabaseSync(path);
      db.exec('PRAGMA busy_timeout = 5000');
      entry = { db, checkpoint: db.prepare('PRAGMA wal_checkpoint(PASSIVE)'), stores: 0 };
      connections.set(path, entry);
    }
    entry.stores += 1;
  }
  if (op === 'close') {
    if (entry && --entry.stores === 0) {
      entry.db.close();
      connections.delete(path);
    }
    parentPort.postMessage({ closed: id });
  }
});
setInterval(() => {
  for (const { checkpoint } of connections.values()) {
    try { checkpoint.get(); } catch { /* busy or gone: the next round tries again */ }
  }
}, ${CHECKPOINT_INTERVAL_MS});
`;

interface Registration {
  path: string;
  /** Called when the worker fails: the store turns SQLite's automatic checkpoints back on. */
  onFailure: () => void;
}

let worker: Worker | undefined;
const registrations = new Set<Registration>();
const pendingCloses = new Map<number, () => void>();
let nextCloseId = 0;

function startWorker(): Worker {
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.unref();
  started.on('message', (message: { closed: number }) => {
    pendingCloses.get(message.closed)?.();
    pendingCloses.delete(message.closed);
  });
  const fail = () => {
    if (worker !== started) return;
    worker = undefined;
    for (const registration of registrations) registration.onFailure();
    registrations.clear();
    for (const resolve of pendingCloses.values()) resolve();
    pendingCloses.clear();
  };
  started.on('error', fail);
  started.on('exit', fail);
  return started;
}

/**
 * Checkpoints `path` in the background until the returned release function is called (and has
 * resolved: the worker's connection is closed, so the store's own close is the last one and
 * SQLite folds the WAL back and removes it).
 */
export function checkpointInBackground(path: string, onFailure: () => void): () => Promise<void> {
  worker ??= startWorker();
  const registration: Registration = { path, onFailure };
  registrations.add(registration);
  worker.postMessage({ op: 'open', path });
  return async () => {
    if (!registrations.delete(registration) || !worker) return;
    const id = nextCloseId++;
    const closed = new Promise<void>((resolve) => pendingCloses.set(id, resolve));
    worker.postMessage({ op: 'close', path, id });
    // The worker keeps the process alive only while a release waits for its answer.
    worker.ref();
    await closed;
    if (pendingCloses.size === 0) worker?.unref();
  };
}
