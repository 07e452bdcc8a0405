import { shutdownTracing } from '@crawl/tracing';
import closeWithGrace from 'close-with-grace';
import { buildProcess, type BuildProcessOptions } from './build-process.ts';

/** Starts a process and stops it cleanly on SIGTERM/SIGINT within the grace period. */
export async function runProcess(options: BuildProcessOptions): Promise<void> {
  const crawl = await buildProcess(options);
  const address = await crawl.listen();
  crawl.app.log.info({ address, targets: crawl.targets }, 'crawl data service listening');
  closeWithGrace({ delay: crawl.runtime.SHUTDOWN_GRACE_MS + 2_000 }, async ({ signal, err }) => {
    if (err) crawl.app.log.error({ err }, 'shutting down after an error');
    else crawl.app.log.info({ signal }, 'shutting down');
    await crawl.close();
    // The spans of the last requests are still buffered; close-with-grace exits right after this.
    await shutdownTracing();
  });
}
