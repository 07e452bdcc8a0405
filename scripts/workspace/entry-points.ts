import { posix } from 'node:path';
import type { ExportsField, WorkspacePackage } from './packages.ts';

/**
 * A package's entry points name files that exist: a missing `exports` target fails only where
 * it is first imported (and nothing in turbo's hash stands for it), a missing `bin` only when
 * run. A subpath pattern (`./testing/*`) must match at least one of the package's sources.
 * Libraries live under packages/: a package there with a `bin` is an application and belongs
 * under apps/.
 */
export function entryPointProblems(pkg: WorkspacePackage, exists: (file: string) => boolean): string[] {
  if (pkg.dir === '') return [];
  const problems: string[] = [];
  const manifest = `${pkg.dir}/package.json`;
  for (const target of exportTargets(pkg.manifest.exports)) {
    const path = posix.join(pkg.dir, target);
    const star = path.indexOf('*');
    const found = star < 0 ? exists(path) : pkg.files.some((file) => file.startsWith(path.slice(0, star)) && file.endsWith(path.slice(star + 1)));
    if (!found) problems.push(`${manifest}: exports ${target}, which ${star < 0 ? 'does not exist' : 'matches no file'}`);
  }
  const bin = pkg.manifest.bin;
  for (const target of typeof bin === 'string' ? [bin] : Object.values(bin ?? {})) {
    if (!exists(posix.join(pkg.dir, target))) problems.push(`${manifest}: bin ${target} does not exist`);
  }
  if (bin !== undefined && pkg.dir.startsWith('packages/')) {
    problems.push(`${manifest}: declares a bin, so it is an application: applications live under apps/, packages/ holds libraries`);
  }
  return problems;
}

/** Every file path an `exports` field names, through subpaths and conditions. */
function exportTargets(field: ExportsField | undefined): string[] {
  if (field === undefined || field === null) return [];
  if (typeof field === 'string') return [field];
  return Object.values(field).flatMap(exportTargets);
}
