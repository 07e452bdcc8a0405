import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';

export interface WorkspacePackage {
  name: string;
  /** Directory relative to the repository root ('' for the root package). */
  dir: string;
  manifest: PackageManifest;
  /** Source files (relative to the repository root) whose imports this package must declare. */
  files: string[];
}

/** A package.json `exports` value: a path, conditions, or a map of subpaths to either. */
export type ExportsField = string | null | { [key: string]: ExportsField };

export interface PackageManifest {
  name?: string;
  exports?: ExportsField;
  bin?: string | Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;
const NEVER = new Set(['node_modules', '.git', '.turbo', 'data', 'coverage']);

/**
 * Every package of the pnpm workspace plus the root, each with the sources it owns. The root owns
 * what lies outside every workspace package (scripts, bench, deploy, root configs).
 */
export function workspacePackages(root: string): WorkspacePackage[] {
  const dirs = workspaceDirs(root);
  const packages = dirs.map((dir) => {
    const manifest = readManifest(join(root, dir));
    return { name: manifest.name ?? dir, dir, manifest, files: sources(root, dir, new Set()) };
  });
  const rootManifest = readManifest(root);
  packages.push({ name: rootManifest.name ?? '(root)', dir: '', manifest: rootManifest, files: sources(root, '', new Set(dirs)) });
  return packages;
}

/** Directories matched by pnpm-workspace.yaml (`dir/*` and plain paths, which is all we use). */
export function workspaceDirs(root: string): string[] {
  const { packages = [] } = parse(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')) as { packages?: string[] };
  const dirs: string[] = [];
  for (const pattern of packages) {
    if (pattern.startsWith('!')) continue;
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      for (const entry of readdirSync(join(root, parent)).sort()) {
        if (isFile(join(root, parent, entry, 'package.json'))) dirs.push(`${parent}/${entry}`);
      }
    } else if (isFile(join(root, pattern, 'package.json'))) dirs.push(pattern);
  }
  return dirs;
}

function sources(root: string, dir: string, skip: Set<string>): string[] {
  const found: string[] = [];
  const walk = (absolute: string) => {
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const path = join(absolute, entry.name);
      const rel = relative(root, path);
      if (NEVER.has(entry.name) || skip.has(rel)) continue;
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(rel);
    }
  };
  walk(join(root, dir));
  return found.sort();
}

function readManifest(dir: string): PackageManifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
