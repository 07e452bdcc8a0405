import { importedPackages } from './imports.ts';
import type { WorkspacePackage } from './packages.ts';

export interface DependencyReport {
  package: string;
  /** Imports whose package is not in the importing package's package.json. */
  undeclared: Array<{ file: string; name: string }>;
  /** Declared dependencies that no source imports and no script runs. */
  unused: string[];
}

export interface CheckSources {
  read(file: string): string;
  /** Executable names a dependency installs (its package.json `bin`), as seen from the package. */
  bins(pkg: WorkspacePackage, dependency: string): string[];
}

/**
 * A package may import only what its package.json declares: pnpm resolves an undeclared import
 * only by accident of hoisting, `pnpm install --prod` and turbo's hashing both miss it. `@types/x`
 * declares `x` for type-only use; a package may import itself by name (its `exports`).
 */
export function checkPackage(pkg: WorkspacePackage, sources: CheckSources): DependencyReport {
  const { manifest } = pkg;
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const imported = new Set<string>();
  const undeclared: DependencyReport['undeclared'] = [];
  for (const file of pkg.files) {
    for (const name of importedPackages(sources.read(file))) {
      imported.add(name);
      if (name === manifest.name || declared.has(name) || declared.has(typesPackage(name))) continue;
      undeclared.push({ file, name });
    }
  }
  const scripts = Object.values(manifest.scripts ?? {}).join('\n');
  const runs = (bin: string) => new RegExp(`(^|[\\s;&|(])${escapeRegExp(bin)}($|[\\s;&|)])`, 'm').test(scripts);
  const unused = [...declared]
    .filter((name) => {
      if (imported.has(name) || name === '@types/node') return false;
      if (name.startsWith('@types/') && [...imported].some((i) => typesPackage(i) === name)) return false;
      return !sources.bins(pkg, name).some(runs);
    })
    .sort();
  return { package: pkg.name, undeclared, unused };
}

/** DefinitelyTyped's name for a package: `@scope/name` → `@types/scope__name`. */
export function typesPackage(name: string): string {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
