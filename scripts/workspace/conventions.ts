import { posix } from 'node:path';
import type { WorkspacePackage } from './packages.ts';

export interface ConventionSources {
  exists(file: string): boolean;
  read(file: string): string;
}

const TEST_FILE = /\.test\.ts$/;

/**
 * What turbo needs from every workspace package so that `pnpm test` covers it: a `tsconfig.json`
 * on the shared base and a `typecheck` script; where there are tests, a `test` script and the
 * shared vitest config. A package that missed them would be silently skipped, not failed.
 */
export function conventionProblems(pkg: WorkspacePackage, sources: ConventionSources): string[] {
  if (pkg.dir === '') return [];
  const problems: string[] = [];
  const scripts = pkg.manifest.scripts ?? {};
  const toRoot = posix.relative(pkg.dir, '.');
  const tsconfig = `${pkg.dir}/tsconfig.json`;
  const base = `${toRoot}/tsconfig.base.json`;
  if (!sources.exists(tsconfig)) problems.push(`${tsconfig} is missing`);
  else if (!sources.read(tsconfig).includes(`"extends": "${base}"`)) problems.push(`${tsconfig} does not extend ${base}`);
  if (scripts.typecheck !== 'tsc -p tsconfig.json') problems.push(`${pkg.dir}/package.json: scripts.typecheck is not "tsc -p tsconfig.json"`);
  if (pkg.files.some((file) => TEST_FILE.test(file))) {
    if (scripts.test !== 'vitest run') problems.push(`${pkg.dir}/package.json: has tests but scripts.test is not "vitest run"`);
    const config = `${pkg.dir}/vitest.config.ts`;
    const shared = `${toRoot}/vitest.shared.ts`;
    if (!sources.exists(config) || !sources.read(config).includes(`'${shared}'`)) problems.push(`${config} does not re-export ${shared}`);
  } else if (scripts.test) problems.push(`${pkg.dir}/package.json: scripts.test without any *.test.ts file`);
  return problems;
}
