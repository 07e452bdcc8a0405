import { join } from 'node:path';
import { build } from 'vite';

const PACKAGE_DIR = join(import.meta.dirname, '..', '..');

/** Builds the dashboard from the current sources into dist/, where the gateway serves it from. */
export async function buildDashboard(): Promise<void> {
  await build({ root: PACKAGE_DIR, configFile: join(PACKAGE_DIR, 'vite.config.ts'), logLevel: 'warn' });
}
