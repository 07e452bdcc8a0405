import { describe, expect, it } from 'vitest';
import { conventionProblems } from './conventions.ts';
import type { PackageManifest } from './packages.ts';

const BASE = '{ "extends": "../../tsconfig.base.json", "include": ["src/**/*.ts"] }';
const VITEST = "export { default } from '../../vitest.shared.ts';\n";

function problems(manifest: PackageManifest, files: string[], existing: Record<string, string>) {
  return conventionProblems(
    { name: 'p', dir: 'packages/p', manifest, files },
    { exists: (file) => file in existing, read: (file) => existing[file] as string },
  );
}

describe('conventionProblems', () => {
  it('accepts a package with tests, both scripts and both configs', () => {
    const manifest = { scripts: { typecheck: 'tsc -p tsconfig.json', test: 'vitest run' } };
    expect(
      problems(manifest, ['packages/p/src/a.ts', 'packages/p/src/a.test.ts'], { 'packages/p/tsconfig.json': BASE, 'packages/p/vitest.config.ts': VITEST }),
    ).toEqual([]);
  });

  it('accepts a package without tests that only typechecks', () => {
    expect(problems({ scripts: { typecheck: 'tsc -p tsconfig.json' } }, ['packages/p/src/a.ts'], { 'packages/p/tsconfig.json': BASE })).toEqual([]);
  });

  it('flags a new package turbo would skip: no tsconfig, no scripts, tests without a test script or config', () => {
    expect(problems({}, ['packages/p/src/a.test.ts'], {})).toEqual([
      'packages/p/tsconfig.json is missing',
      'packages/p/package.json: scripts.typecheck is not "tsc -p tsconfig.json"',
      'packages/p/package.json: has tests but scripts.test is not "vitest run"',
      'packages/p/vitest.config.ts does not re-export ../../vitest.shared.ts',
    ]);
  });

  it('flags a tsconfig that does not extend the shared base', () => {
    const manifest = { scripts: { typecheck: 'tsc -p tsconfig.json' } };
    expect(problems(manifest, [], { 'packages/p/tsconfig.json': '{ "compilerOptions": { "strict": false } }' })).toEqual([
      'packages/p/tsconfig.json does not extend ../../tsconfig.base.json',
    ]);
  });

  it('measures the shared files from where the package sits (bench/ is one level down)', () => {
    const manifest = { scripts: { typecheck: 'tsc -p tsconfig.json' } };
    const bench = (tsconfig: string) => conventionProblems({ name: 'b', dir: 'bench', manifest, files: [] }, { exists: () => true, read: () => tsconfig });
    expect(bench('{ "extends": "../tsconfig.base.json" }')).toEqual([]);
    expect(bench(BASE)).toEqual(['bench/tsconfig.json does not extend ../tsconfig.base.json']);
  });

  it('leaves the root package to its own tasks', () => {
    expect(conventionProblems({ name: 'root', dir: '', manifest: {}, files: ['scripts/a.test.ts'] }, { exists: () => false, read: () => '' })).toEqual([]);
  });
});
