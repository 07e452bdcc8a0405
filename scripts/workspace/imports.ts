import { isBuiltin } from 'node:module';
import ts from 'typescript';

/**
 * The packages a source file imports: static and dynamic imports, re-exports, `import type`,
 * `import('x').T` type queries and `require`. TypeScript's own pre-processor finds them, so
 * specifiers inside comments and strings do not count. Relative paths and Node built-ins are not
 * packages. A dynamic import of a template (`import(\`pkg/${path}\`)`) counts when its fixed head
 * names the package.
 */
export function importedPackages(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const names = new Set<string>();
  for (const fileName of [...importedFiles.map((file) => file.fileName), ...templateImportHeads(source)]) {
    const name = packageName(fileName);
    if (name) names.add(name);
  }
  return [...names].sort();
}

function templateImportHeads(source: string): string[] {
  if (!source.includes('import(`')) return [];
  const heads: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      // Only a head that ends in '/' names a whole package (`kubernetes-models/${v}`, not `x${y}`).
      if (argument && ts.isTemplateExpression(argument) && argument.head.text.includes('/')) heads.push(argument.head.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return heads;
}

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`; undefined for anything not a package. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#') || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  if (specifier.startsWith('@')) return parts.length >= 2 && parts[1] ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}
