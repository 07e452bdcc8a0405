import { isBuiltin } from 'node:module';
import ts from 'typescript';

/**
 * The packages a source file imports: static and dynamic imports, re-exports, `import type`,
 * `import('x').T` type queries and `require`. TypeScript's own pre-processor finds them, so
 * specifiers inside comments and strings do not count. Relative paths and Node built-ins are not
 * packages.
 */
export function importedPackages(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const names = new Set<string>();
  for (const { fileName } of importedFiles) {
    const name = packageName(fileName);
    if (name) names.add(name);
  }
  return [...names].sort();
}

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`; undefined for anything not a package. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#') || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  if (specifier.startsWith('@')) return parts.length >= 2 && parts[1] ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}
