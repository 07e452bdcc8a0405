import { describe, expect, it } from 'vitest';
import { checkPackage, typesPackage } from './dependencies.ts';
import type { PackageManifest, WorkspacePackage } from './packages.ts';

function pkg(manifest: PackageManifest, files: Record<string, string>, bins: Record<string, string[]> = {}) {
  const workspacePackage: WorkspacePackage = { name: manifest.name ?? 'p', dir: 'packages/p', manifest, files: Object.keys(files) };
  return checkPackage(workspacePackage, { read: (file) => files[file] as string, bins: (_, dependency) => bins[dependency] ?? [] });
}

describe('checkPackage', () => {
  it('reports each import its package.json does not declare, with the file', () => {
    const report = pkg(
      { name: '@crawl/p', dependencies: { fastify: '^5' }, devDependencies: { vitest: '^5' } },
      {
        'packages/p/src/a.ts': "import fastify from 'fastify';\nimport { Type } from '@sinclair/typebox';",
        'packages/p/src/a.test.ts': "import { it } from 'vitest';\nimport { startTestService } from '@crawl/testkit';",
      },
    );
    expect(report.undeclared).toEqual([
      { file: 'packages/p/src/a.ts', name: '@sinclair/typebox' },
      { file: 'packages/p/src/a.test.ts', name: '@crawl/testkit' },
    ]);
  });

  it('accepts self-imports through the package name and type-only packages declared as @types/…', () => {
    const report = pkg(
      { name: '@crawl/p', devDependencies: { '@types/autocannon': '^7', '@types/scope__lib': '^1' } },
      { 'packages/p/src/a.ts': "import { x } from '@crawl/p/testing';\nimport type A from 'autocannon';\nimport type { L } from '@scope/lib';" },
    );
    expect(report.undeclared).toEqual([]);
    expect(report.unused).toEqual([]);
  });

  it('lists declared dependencies nothing imports, unless a script runs their binary', () => {
    const report = pkg(
      {
        name: '@crawl/p',
        scripts: { typecheck: 'tsc -p tsconfig.json' },
        dependencies: { 'fast-jwt': '^6', '@fastify/jwt': '^10' },
        devDependencies: { typescript: '^5', turbo: '^2', '@types/node': '^24' },
      },
      { 'packages/p/src/a.ts': "import { createSigner } from 'fast-jwt';" },
      { typescript: ['tsc', 'tsserver'], turbo: ['turbo'] },
    );
    expect(report.unused).toEqual(['@fastify/jwt', 'turbo']);
  });
});

describe('typesPackage', () => {
  it('follows the DefinitelyTyped naming', () => {
    expect(typesPackage('autocannon')).toBe('@types/autocannon');
    expect(typesPackage('@scope/lib')).toBe('@types/scope__lib');
  });
});
