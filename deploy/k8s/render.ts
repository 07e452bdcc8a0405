/**
 * Renders the kustomizations under deploy/k8s with kustomize itself, so what the tests validate is
 * what `kubectl apply -k` installs. scripts/kustomize.sh builds the pinned kustomize once with Go
 * (or returns `KUSTOMIZE`); the binary is looked up once per process.
 *
 * `pnpm k8s:render dev|production|base|<dir>` prints the rendered YAML.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

// biome-ignore lint/suspicious/noExplicitAny: rendered YAML of every kind; the tests read deep fields and validate them with kubernetes-models.
export type Manifest = Record<string, any> & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [key: string]: unknown } };

export const K8S_DIR = import.meta.dirname;
const SCRIPT = resolve(K8S_DIR, '../../scripts/kustomize.sh');

let binary: { path: string } | { missing: string } | undefined;

/** The kustomize binary, or why there is none (no Go toolchain, a failed build). */
export function findKustomize(): { path: string } | { missing: string } {
  binary ??= locate();
  return binary;
}

function locate(): { path: string } | { missing: string } {
  try {
    // stderr passes through: the first build says what it is doing for a minute.
    const path = execFileSync(SCRIPT, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    return { path };
  } catch (error) {
    return { missing: `scripts/kustomize.sh failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export function kustomizeBinary(): string {
  const found = findKustomize();
  if ('missing' in found) throw new Error(found.missing);
  return found.path;
}

/** Parses kustomize's multi-document output; empty documents are dropped. */
export function parseManifests(yaml: string): Manifest[] {
  const out: Manifest[] = [];
  for (const doc of parseAllDocuments(yaml)) {
    if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('; '));
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value as Manifest);
  }
  return out;
}

/** `kustomize build <dir>` as YAML text. */
export function buildYaml(dir: string): string {
  return execFileSync(kustomizeBinary(), ['build', dir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
}

export function renderKustomization(dir: string): Manifest[] {
  return parseManifests(buildYaml(dir));
}

/** Every overlay under deploy/k8s/overlays, by name. */
export function overlays(): Array<{ name: string; dir: string }> {
  const root = join(K8S_DIR, 'overlays');
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'kustomization.yaml')))
    .map((name) => ({ name, dir: join(root, name) }));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const arg = process.argv[2] ?? 'base';
  const dir = existsSync(join(K8S_DIR, 'overlays', arg)) ? join(K8S_DIR, 'overlays', arg) : arg === 'base' ? join(K8S_DIR, 'base') : resolve(arg);
  try {
    process.stdout.write(buildYaml(dir));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
