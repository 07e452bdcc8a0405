import { register as registerAsync } from 'node:module';
import { register as registerSync, supportsSyncHooks } from 'import-in-the-middle/register-hooks.mjs';

/**
 * The packages the instrumentations patch that are loaded with `import`: without a loader hook an
 * ES module import never passes through the `require` the instrumentations wrap. Only these are
 * intercepted; every other module, our own TypeScript included, loads untouched.
 */
const INTERCEPTED = ['http', 'https', 'node:http', 'node:https', 'ioredis', 'mongodb'];

/** Puts import-in-the-middle's loader hook in place; must run before those modules are first imported. */
export function registerLoaderHook(): void {
  if (supportsSyncHooks()) registerSync({ include: INTERCEPTED });
  else registerAsync('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: INTERCEPTED } });
}
