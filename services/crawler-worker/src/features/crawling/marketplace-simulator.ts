import type { Simulator } from '@crawl/marketplace-simulator';

/**
 * MARKETPLACE=simulator: the local marketplace simulator in this process, so the whole service
 * crawls realistic pages with no network (the offline demo). Loaded only in that mode: a live
 * worker never imports it.
 */
export async function startEmbeddedSimulator(port: number): Promise<Simulator> {
  const { createSimulator } = await import('@crawl/marketplace-simulator');
  return createSimulator({ port, host: '127.0.0.1' });
}
