import { describe, expect, it } from 'vitest';
import { importedPackages, packageName } from './imports.ts';

describe('importedPackages', () => {
  it('finds static, type-only, re-exported, dynamic, type-query and side-effect imports', () => {
    const source = [
      "import { a } from 'alpha';",
      "import type { B } from '@scope/beta/sub/path';",
      "export * from 'gamma/deep';",
      "export { d } from 'delta';",
      "const e = await import('epsilon');",
      "type Z = import('zeta').Z;",
      "import 'eta';",
    ].join('\n');
    expect(importedPackages(source)).toEqual(['@scope/beta', 'alpha', 'delta', 'epsilon', 'eta', 'gamma', 'zeta']);
  });

  it('finds a dynamic import of a template whose fixed head names the package', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template import, as the checker reads it.
    const source = 'const schema = await import(`kubernetes-models/${apiVersion}/${kind}`);\nconst local = await import(`./${name}.ts`);';
    expect(importedPackages(source)).toEqual(['kubernetes-models']);
  });

  it('ignores relative paths, Node built-ins and specifiers in comments or strings', () => {
    const source = [
      "import { x } from './x.ts';",
      "import { y } from '../y/index.ts';",
      "import { readFile } from 'node:fs/promises';",
      "import { join } from 'path';",
      "// import z from 'commented-out';",
      'const text = "import w from \'in-a-string\'";',
    ].join('\n');
    expect(importedPackages(source)).toEqual([]);
  });
});

describe('packageName', () => {
  it('keeps the scope and drops subpaths', () => {
    expect(packageName('@crawl/server/testing')).toBe('@crawl/server');
    expect(packageName('vitest/config')).toBe('vitest');
    expect(packageName('fastify')).toBe('fastify');
  });

  it('is undefined for what is not a package', () => {
    for (const specifier of ['./a.ts', '/abs/b.ts', '#internal', 'node:test', 'crypto', '@broken']) expect(packageName(specifier), specifier).toBeUndefined();
  });
});
