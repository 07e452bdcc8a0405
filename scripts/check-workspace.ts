/**
 * Workspace rules turbo and pnpm rely on, run by `pnpm test` (turbo task `//#check:workspace`):
 * - every import is declared in the importing package's package.json (else it resolves only by
 *   hoisting, `pnpm install --prod` drops it and turbo's hash misses it);
 * - every package has the typecheck/test scripts and configs that put it under `pnpm test`;
 * - every package's `exports` and `bin` name files that exist, and packages/ holds no application;
 * - pnpm is pinned by version and hash, and the Dockerfile installs that version;
 * - a service's feature folders use each other only through their index.ts.
 * Declared dependencies that nothing imports or runs are listed; `--fail-on-unused` fails on them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conventionProblems } from './workspace/conventions.ts';
import { checkPackage } from './workspace/dependencies.ts';
import { entryPointProblems } from './workspace/entry-points.ts';
import { featureFaceCheck } from './workspace/feature-faces.ts';
import { packageManagerProblems } from './workspace/package-manager.ts';
import { workspacePackages } from './workspace/packages.ts';

const root = join(import.meta.dirname, '..');
const failOnUnused = process.argv.includes('--fail-on-unused');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

let failed = false;
const { packageManager } = JSON.parse(read('package.json')) as { packageManager?: string };
for (const problem of packageManagerProblems(packageManager, read('Dockerfile'))) {
  failed = true;
  console.error(problem);
}
for (const pkg of workspacePackages(root)) {
  const report = checkPackage(pkg, {
    read,
    bins: (owner, dependency) => binNames(join(root, owner.dir, 'node_modules', dependency, 'package.json'), dependency),
  });
  for (const { file, name } of report.undeclared) {
    failed = true;
    console.error(`${file}: imports ${name}, which ${report.package}'s package.json does not declare`);
  }
  for (const name of report.unused) {
    if (failOnUnused) failed = true;
    console[failOnUnused ? 'error' : 'warn'](`${report.package}: declares ${name}, which nothing in it imports or runs`);
  }
  const exists = (file: string) => existsSync(join(root, file));
  for (const problem of [...conventionProblems(pkg, { read, exists }), ...entryPointProblems(pkg, exists)]) {
    failed = true;
    console.error(problem);
  }
}
// A feature folder is used through its index.ts only (scripts/workspace/feature-faces.ts).
const faces = featureFaceCheck(
  workspacePackages(root).flatMap((pkg) => pkg.files),
  read,
);
for (const notice of faces.notices) console.warn(notice);
for (const problem of faces.problems) {
  failed = true;
  console.error(problem);
}
if (failed) process.exit(1);
console.log('check-workspace: every import is declared, every package is typechecked and tested, every entry point exists, pnpm is pinned');

function binNames(manifestPath: string, dependency: string): string[] {
  try {
    const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
    if (typeof bin === 'string') return [dependency.split('/').at(-1) as string];
    return Object.keys(bin ?? {});
  } catch {
    return [];
  }
}
