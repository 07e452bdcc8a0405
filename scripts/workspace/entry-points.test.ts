import { describe, expect, it } from 'vitest';
import { entryPointProblems } from './entry-points.ts';
import type { PackageManifest } from './packages.ts';

function problems(dir: string, manifest: PackageManifest, files: string[]) {
  return entryPointProblems({ name: 'p', dir, manifest, files }, (file) => files.includes(file));
}

describe('entryPointProblems', () => {
  it('accepts exports, subpath patterns, conditions and bins that name existing files', () => {
    const files = ['apps/p/src/index.ts', 'apps/p/src/testing/fixture.ts', 'apps/p/src/node.ts', 'apps/p/src/bin.ts'];
    const manifest = {
      exports: { '.': './src/index.ts', './testing/*': './src/testing/*.ts', './node': { node: './src/node.ts', default: null } },
      bin: { p: './src/bin.ts' },
    };
    expect(problems('apps/p', manifest, files)).toEqual([]);
  });

  it('names an export or a bin whose file is missing, and a pattern that matches nothing', () => {
    const manifest = { exports: { '.': './dist-dir.ts', './testing/*': './src/testing/*.ts' }, bin: './src/bin.ts' };
    expect(problems('apps/p', manifest, ['apps/p/src/index.ts'])).toEqual([
      'apps/p/package.json: exports ./dist-dir.ts, which does not exist',
      'apps/p/package.json: exports ./src/testing/*.ts, which matches no file',
      'apps/p/package.json: bin ./src/bin.ts does not exist',
    ]);
  });

  it('finds an application under packages/ by its bin', () => {
    expect(problems('packages/p', { exports: './src/index.ts', bin: { p: './src/bin.ts' } }, ['packages/p/src/index.ts', 'packages/p/src/bin.ts'])).toEqual([
      'packages/p/package.json: declares a bin, so it is an application: applications live under apps/, packages/ holds libraries',
    ]);
  });
});
