/**
 * A small kustomize renderer for the subset of kustomization.yaml these manifests use, so the
 * manifests can be rendered and validated with nothing but Node (no kustomize/kubectl binary):
 * `resources` (files, or directories with a kustomization.yaml), `namespace`, `images`,
 * `replicas` and `patches` (strategic-merge patch files that name their target by kind and
 * name). Any other kustomization field is an error, so the manifests cannot silently outgrow it;
 * the test compares its output with `kubectl kustomize` where that is installed.
 *
 * `pnpm k8s:render dev|production|<dir>` prints the rendered YAML.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

export type Manifest = Record<string, any> & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [key: string]: unknown } };

export const K8S_DIR = import.meta.dirname;

const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'replicas', 'patches']);
/** Cluster-scoped kinds among those this project could use; everything else gets the namespace. */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'StorageClass', 'PersistentVolume', 'CustomResourceDefinition']);
/** Merge keys of the strategic-merge patch for the lists these manifests patch; other lists are replaced. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/** Parses a (multi-document) YAML file; empty documents are dropped. */
export function readYamlDocuments(file: string): any[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out: any[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new RenderError(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strategic merge (the parts of it these manifests use): maps merge, `null` deletes, keyed lists merge by key. */
export function strategicMerge(target: unknown, patch: unknown, field = ''): unknown {
  if (Array.isArray(patch)) {
    const key = MERGE_KEYS[field];
    if (!key || !Array.isArray(target)) return structuredClone(patch);
    const merged = target.map((item) => structuredClone(item));
    const added: unknown[] = [];
    for (const item of patch) {
      const index = isObject(item) ? merged.findIndex((existing) => isObject(existing) && existing[key] === item[key]) : -1;
      if (index >= 0) merged[index] = strategicMerge(merged[index], item, '');
      else added.push(structuredClone(item));
    }
    // kustomize (kyaml) puts items that only the patch has before the existing ones.
    return [...added, ...merged];
  }
  if (isObject(patch)) {
    const base: Record<string, any> = isObject(target) ? structuredClone(target) : {};
    for (const [name, value] of Object.entries(patch)) {
      if (value === null) delete base[name];
      else base[name] = strategicMerge(base[name], value, name);
    }
    return base;
  }
  return patch;
}

function splitImage(image: string): { name: string; tag?: string } {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at) };
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  if (colon > slash) return { name: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { name: image };
}

function podContainers(manifest: Manifest): any[] {
  const spec = manifest.spec?.template?.spec ?? manifest.spec?.jobTemplate?.spec?.template?.spec;
  return spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])] : [];
}

/** Renders the kustomization in `dir` (a directory holding kustomization.yaml). */
export function renderKustomization(dir: string): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new RenderError(`${dir} has no kustomization.yaml`);
  const [kustomization] = readYamlDocuments(file) as [Record<string, any>];
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED_FIELDS.has(key));
  if (unsupported.length > 0) throw new RenderError(`${file}: fields not supported by render.ts: ${unsupported.join(', ')}`);

  let manifests: Manifest[] = [];
  for (const entry of (kustomization.resources ?? []) as string[]) {
    const path = resolve(dir, entry);
    if (!existsSync(path)) throw new RenderError(`${file}: resource ${entry} does not exist`);
    const docs = statSync(path).isDirectory() ? renderKustomization(path) : (readYamlDocuments(path) as Manifest[]);
    for (const doc of docs) {
      if (!doc?.apiVersion || !doc?.kind || !doc?.metadata?.name) throw new RenderError(`${path}: a document lacks apiVersion, kind or metadata.name`);
      if (manifests.some((m) => m.kind === doc.kind && m.metadata.name === doc.metadata.name)) throw new RenderError(`${path}: ${doc.kind} ${doc.metadata.name} is defined twice`);
    }
    manifests.push(...docs);
  }

  for (const patchEntry of (kustomization.patches ?? []) as Array<{ path?: string; target?: unknown; patch?: unknown }>) {
    if (!patchEntry.path || patchEntry.target !== undefined || patchEntry.patch !== undefined) {
      throw new RenderError(`${file}: render.ts supports patches given as { path } to a strategic-merge patch file only`);
    }
    const path = resolve(dir, patchEntry.path);
    if (!existsSync(path)) throw new RenderError(`${file}: patch ${patchEntry.path} does not exist`);
    for (const patch of readYamlDocuments(path) as Manifest[]) {
      const index = manifests.findIndex((m) => m.kind === patch.kind && m.metadata.name === patch.metadata?.name);
      if (index < 0) throw new RenderError(`${path}: patches ${patch.kind} ${patch.metadata?.name}, which no resource defines`);
      manifests[index] = strategicMerge(manifests[index], patch) as Manifest;
    }
  }

  for (const { name, count } of (kustomization.replicas ?? []) as Array<{ name: string; count: number }>) {
    const targets = manifests.filter((m) => m.metadata.name === name && ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(m.kind));
    if (targets.length === 0) throw new RenderError(`${file}: replicas for ${name}, which is no Deployment/StatefulSet`);
    for (const target of targets) target.spec = { ...target.spec, replicas: count };
  }

  for (const image of (kustomization.images ?? []) as Array<{ name: string; newName?: string; newTag?: string; digest?: string }>) {
    let used = false;
    for (const manifest of manifests) {
      for (const container of podContainers(manifest)) {
        const current = splitImage(String(container.image));
        if (current.name !== image.name) continue;
        used = true;
        const name = image.newName ?? current.name;
        container.image = image.digest ? `${name}@${image.digest}` : image.newTag !== undefined ? `${name}:${image.newTag}` : current.tag ? `${name}:${current.tag}` : name;
      }
    }
    if (!used) throw new RenderError(`${file}: image ${image.name} is used by no container`);
  }

  if (kustomization.namespace) {
    manifests = manifests.map((manifest) =>
      CLUSTER_SCOPED.has(manifest.kind) ? manifest : { ...manifest, metadata: { ...manifest.metadata, namespace: kustomization.namespace as string } },
    );
  }
  return manifests;
}

export function toYaml(manifests: readonly Manifest[]): string {
  return manifests.map((m) => stringify(m, { lineWidth: 0 })).join('---\n');
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
    process.stdout.write(toYaml(renderKustomization(dir)));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
