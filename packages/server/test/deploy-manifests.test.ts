/**
 * Validates the deployment artefacts without a cluster or a Docker daemon:
 * - deploy/k8s: base and every overlay rendered by kustomize (scripts/kustomize.sh; compared with
 *   `kubectl kustomize`, which `kubectl apply -k` uses, where kubectl is installed), each document checked against the Kubernetes
 *   JSON schemas shipped in `kubernetes-models`, then the project's own rules (probes on the real
 *   endpoints, resources, PDBs, HPA, env names known to the config schemas, service URLs that
 *   resolve to Services selecting the right pods, secrets referenced and documented).
 * - Dockerfile / .dockerignore: Node 24 base, non-root user, the entrypoint exists, COPY sources
 *   exist, and every file the server loads is in the build context and needs only production
 *   dependencies (what `pnpm install --prod` in the image provides).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describeConfig } from '@crawl/config';
import { SERVICE_NAMES, type ServiceName } from '@crawl/contracts';
import { RuntimeConfig } from '@crawl/modules';
import { MODULE_LOADERS } from '@crawl/server';
import { startTestService } from '@crawl/server/testing';
import { describe, expect, it } from 'vitest';
import { findKustomize, K8S_DIR, overlays, parseManifests, renderKustomization, type Manifest } from '../../../deploy/k8s/render.ts';
import { REPO_ROOT } from './spawn-service.ts';

const PROFILES = [{ name: 'base', dir: join(K8S_DIR, 'base') }, ...overlays()];

const kustomize = findKustomize();
if ('missing' in kustomize) {
  if (process.env.CI === 'true') throw new Error(`CI requires kustomize to validate the manifests: ${kustomize.missing}`);
  console.warn(`[manifest checks skipped] ${kustomize.missing}`);
}

/** Which other services each service calls over HTTP when they run in other processes. */
const NEEDS_URLS: Record<ServiceName, string[]> = {
  gateway: ['AUTH_URL', 'CATALOG_URL', 'BILLING_URL'],
  auth: ['BILLING_URL', 'CATALOG_URL'],
  catalog: ['BILLING_URL'],
  billing: ['CATALOG_URL'],
  'crawler-worker': ['CATALOG_URL', 'BILLING_URL'],
};
const URL_OWNER: Record<string, ServiceName> = { AUTH_URL: 'auth', CATALOG_URL: 'catalog', BILLING_URL: 'billing', GATEWAY_URL: 'gateway' };
/** Keys the Secret `crawl-secrets` must provide in microservices mode. */
const SECRET_KEYS = ['MONGO_URL', 'REDIS_URL', 'JWT_SECRET'];

async function validateSchema(manifest: Manifest): Promise<void> {
  const module = await import(`kubernetes-models/${manifest.apiVersion}/${manifest.kind}`).catch(() => undefined);
  const Model = module?.[manifest.kind];
  if (!Model) throw new Error(`${manifest.kind} ${manifest.metadata.name}: no schema for ${manifest.apiVersion} ${manifest.kind}`);
  try {
    new Model(structuredClone(manifest)).validate();
  } catch (error) {
    throw new Error(`${manifest.kind} ${manifest.metadata.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The kubectl binary (`KUBECTL` overrides), when installed. */
function kubectl(): string | undefined {
  const binary = process.env.KUBECTL ?? 'kubectl';
  try {
    execFileSync(binary, ['version', '--client'], { stdio: 'ignore' });
    return binary;
  } catch {
    return undefined;
  }
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

function byKind(manifests: Manifest[], kind: string): Manifest[] {
  return manifests.filter((m) => m.kind === kind);
}

interface ServiceDeployment {
  service: ServiceName;
  deployment: Manifest;
  container: any;
  podLabels: Record<string, string>;
  /** Effective environment: ConfigMaps/Secrets of envFrom (when rendered) then env. */
  env: Map<string, string | { secret: string; key: string }>;
}

function serviceDeployments(manifests: Manifest[]): ServiceDeployment[] {
  const out: ServiceDeployment[] = [];
  for (const deployment of byKind(manifests, 'Deployment')) {
    const containers = deployment.spec.template.spec.containers as any[];
    for (const container of containers) {
      const target = (container.args ?? []).find((a: string) => a.startsWith('--target='))?.slice('--target='.length);
      if (!target) continue;
      const env = new Map<string, string | { secret: string; key: string }>();
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef) {
          const cm = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === source.configMapRef.name);
          for (const [k, v] of Object.entries(cm?.data ?? {})) env.set(k, String(v));
        }
        if (source.secretRef) {
          const secret = manifests.find((m) => m.kind === 'Secret' && m.metadata.name === source.secretRef.name);
          for (const k of Object.keys({ ...secret?.data, ...secret?.stringData })) env.set(k, { secret: source.secretRef.name, key: k });
        }
      }
      for (const entry of container.env ?? [])
        env.set(entry.name, entry.value ?? { secret: entry.valueFrom?.secretKeyRef?.name ?? '?', key: entry.valueFrom?.secretKeyRef?.key ?? '?' });
      out.push({ service: target as ServiceName, deployment, container, podLabels: deployment.spec.template.metadata.labels, env });
    }
  }
  return out;
}

async function knownEnv(): Promise<{ runtime: Set<string>; byService: Map<ServiceName, Set<string>> }> {
  const runtime = new Set(describeConfig(RuntimeConfig).map((e) => e.name));
  const byService = new Map<ServiceName, Set<string>>();
  for (const service of SERVICE_NAMES) {
    const module = await MODULE_LOADERS[service]();
    byService.set(service, new Set([...runtime, ...(module.configSchema ? describeConfig(module.configSchema).map((e) => e.name) : [])]));
  }
  return { runtime, byService };
}

describe.runIf('path' in kustomize)('deploy/k8s rendering', () => {
  for (const profile of PROFILES) {
    it(`renders ${profile.name} as kubectl kustomize (kubectl apply -k) does, where kubectl is installed`, (context) => {
      const rendered = renderKustomization(profile.dir);
      expect(rendered.length).toBeGreaterThan(0);
      const binary = kubectl();
      if (!binary) {
        console.warn('[kubectl comparison skipped] kubectl is not installed; the manifests are still validated from kustomize output');
        context.skip('kubectl is not installed');
        return;
      }
      const theirs = new Map(
        parseManifests(execFileSync(binary, ['kustomize', profile.dir], { encoding: 'utf8' })).map((m) => [`${m.kind}/${m.metadata.name}`, m]),
      );
      const ours = new Map(rendered.map((m) => [`${m.kind}/${m.metadata.name}`, m]));
      expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
      for (const [key, manifest] of ours) expect(manifest, key).toEqual(theirs.get(key));
    });
  }
});

describe.runIf('path' in kustomize).each(PROFILES)('Kubernetes manifests: $name', (profile) => {
  const manifests = 'path' in kustomize ? renderKustomization(profile.dir) : [];
  const deployments = serviceDeployments(manifests);
  const isOverlay = profile.name !== 'base';

  it('every document is valid against the Kubernetes schemas of its apiVersion and kind', async () => {
    for (const manifest of manifests) await validateSchema(manifest);
    // The validator does catch mistakes.
    const broken = structuredClone(deployments[0]!.deployment);
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    await expect(validateSchema(broken)).rejects.toThrow(/containerPort must be integer/);
  });

  it('runs each of the five services as its own Deployment of the one image, chosen by --target', () => {
    expect(deployments.map((d) => d.service).sort()).toEqual([...SERVICE_NAMES].sort());
    const images = new Set(deployments.map((d) => d.container.image));
    expect(images.size).toBe(1);
    expect([...images][0]).toMatch(/(^|\/)crawl-data-service(:[\w.-]+)?$/);
    for (const { deployment, podLabels } of deployments) {
      expect(selects(deployment.spec.selector.matchLabels, podLabels), deployment.metadata.name).toBe(true);
      // No other Deployment's selector catches these pods.
      const others = byKind(manifests, 'Deployment').filter((d) => d !== deployment && selects(d.spec.selector.matchLabels, podLabels));
      expect(
        others.map((d) => d.metadata.name),
        deployment.metadata.name,
      ).toEqual([]);
    }
  });

  it('probes the real endpoints: liveness and startup on /live, readiness on /ready, on a declared port', () => {
    for (const { service, container } of deployments) {
      const ports = new Map((container.ports as any[]).map((p) => [p.name, p.containerPort]));
      expect(container.livenessProbe?.httpGet?.path, service).toBe('/live');
      expect(container.startupProbe?.httpGet?.path, service).toBe('/live');
      expect(container.readinessProbe?.httpGet?.path, service).toBe('/ready');
      for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe])
        expect(ports.has(probe.httpGet.port), service).toBe(true);
      const portEnv = deployments.find((d) => d.container === container)!.env.get('PORT') ?? '3000';
      expect(ports.get('http'), service).toBe(Number(portEnv));
    }
  });

  it('sets resource requests and limits, and runs non-root, read-only, without capabilities', () => {
    for (const { service, deployment, container, env } of deployments) {
      for (const kind of ['requests', 'limits']) {
        expect(container.resources?.[kind]?.cpu, `${service} ${kind}.cpu`).toBeTruthy();
        expect(container.resources?.[kind]?.memory, `${service} ${kind}.memory`).toBeTruthy();
      }
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot, service).toBe(true);
      expect(pod.securityContext.runAsUser, service).toBe(1000);
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      // DATA_DIR must be writable on a read-only root file system.
      const dataDir = env.get('DATA_DIR');
      expect(typeof dataDir, service).toBe('string');
      expect(
        (container.volumeMounts as any[]).map((m) => m.mountPath),
        service,
      ).toContain(dataDir);
      // Kubernetes kills the pod only after the preStop pause and the process's own grace period.
      const grace = Number(env.get('SHUTDOWN_GRACE_MS') ?? 10_000) / 1000;
      const preStop = Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      expect(pod.terminationGracePeriodSeconds, service).toBeGreaterThan(preStop + grace + 2);
      expect(deployment.spec.strategy.rollingUpdate.maxUnavailable, service).toBe(0);
    }
  });

  it('has a PodDisruptionBudget per service and a HorizontalPodAutoscaler for the workers only', () => {
    const pdbs = byKind(manifests, 'PodDisruptionBudget');
    for (const { service, podLabels } of deployments) {
      expect(pdbs.filter((p) => selects(p.spec.selector.matchLabels, podLabels)).length, service).toBe(1);
    }
    const hpas = byKind(manifests, 'HorizontalPodAutoscaler');
    const worker = deployments.find((d) => d.service === 'crawler-worker')!;
    expect(hpas.map((h) => h.spec.scaleTargetRef)).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: worker.deployment.metadata.name }]);
    const hpa = hpas[0]!;
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    // The HPA owns the count: a replicas field would reset it on every apply.
    expect(worker.deployment.spec.replicas).toBeUndefined();
    // CPU utilization needs a CPU request to be computed against.
    expect(hpa.spec.metrics.some((m: any) => m.resource?.name === 'cpu')).toBe(true);
    expect(worker.container.resources.requests.cpu).toBeTruthy();
  });

  it('gives every service only settings its config schemas know, and the URLs of the services it calls, which resolve to Services selecting those pods', async () => {
    const known = await knownEnv();
    for (const cm of byKind(manifests, 'ConfigMap')) {
      for (const key of Object.keys(cm.data ?? {}))
        expect(known.runtime.has(key) || [...known.byService.values()].some((s) => s.has(key)), `ConfigMap ${cm.metadata.name}: ${key}`).toBe(true);
    }
    for (const { service, container, env } of deployments) {
      for (const entry of container.env ?? [])
        expect(known.byService.get(service)!.has(entry.name), `${service}: env ${entry.name} is no setting of this service`).toBe(true);
      for (const key of NEEDS_URLS[service]) {
        const url = env.get(key);
        expect(typeof url, `${service} needs ${key}`).toBe('string');
        const parsed = new URL(url as string);
        const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
        const svc = manifests.find((m) => m.kind === 'Service' && m.metadata.name === parsed.hostname);
        expect(svc, `${service}: ${key}=${url as string} names no Service`).toBeDefined();
        expect(
          (svc!.spec.ports as any[]).some((p) => p.port === port),
          `${key}: Service ${parsed.hostname} has no port ${port}`,
        ).toBe(true);
        const owner = deployments.find((d) => d.service === URL_OWNER[key]);
        expect(selects(svc!.spec.selector, owner!.podLabels), `${key}: Service ${parsed.hostname} does not select ${URL_OWNER[key]}`).toBe(true);
        const targetPort = (svc!.spec.ports as any[]).find((p) => p.port === port).targetPort;
        expect((owner!.container.ports as any[]).some((p) => p.name === targetPort || p.containerPort === targetPort)).toBe(true);
      }
    }
  });

  it('references only ConfigMaps that exist and the Secret crawl-secrets, which the dev profile ships and production documents', () => {
    for (const { service, container } of deployments) {
      const refs = (container.envFrom ?? []) as any[];
      for (const ref of refs.filter((r) => r.configMapRef))
        expect(
          manifests.some((m) => m.kind === 'ConfigMap' && m.metadata.name === ref.configMapRef.name),
          `${service}: ConfigMap ${ref.configMapRef.name}`,
        ).toBe(true);
      expect(
        refs.filter((r) => r.secretRef).map((r) => r.secretRef.name),
        service,
      ).toEqual(['crawl-secrets']);
    }
    const secret = manifests.find((m) => m.kind === 'Secret' && m.metadata.name === 'crawl-secrets');
    if (profile.name === 'dev') {
      expect(Object.keys(secret?.stringData ?? {}).sort()).toEqual([...SECRET_KEYS].sort());
      expect(Buffer.byteLength(String(secret!.stringData.JWT_SECRET))).toBeGreaterThanOrEqual(32);
    } else {
      // Real secrets never live in the repository: production creates crawl-secrets itself.
      expect(secret).toBeUndefined();
      const docs = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
      expect(docs).toContain('crawl-secrets');
      for (const key of SECRET_KEYS) expect(docs).toContain(key);
    }
    if (isOverlay) expect(manifests.every((m) => m.kind === 'Namespace' || typeof m.metadata.namespace === 'string')).toBe(true);
  });

  it('exposes each service but the crawler-worker through a Service whose selector and target port match its pods', () => {
    for (const { service, podLabels, container } of deployments) {
      const services = byKind(manifests, 'Service').filter((s) => selects(s.spec.selector, podLabels));
      // The crawler-worker serves no routes (work comes from the queue): no Service selects it.
      if (service === 'crawler-worker') {
        expect(services, service).toEqual([]);
        continue;
      }
      expect(services.length, service).toBe(1);
      for (const port of services[0]!.spec.ports as any[])
        expect(
          (container.ports as any[]).some((p) => p.name === port.targetPort),
          service,
        ).toBe(true);
    }
  });
});

describe('/live and /ready, the endpoints the probes call', () => {
  it('answer 200 on a started process', async () => {
    const svc = await startTestService();
    try {
      expect((await svc.request({ method: 'GET', url: '/live' })).body).toEqual({ alive: true });
      expect((await svc.request({ method: 'GET', url: '/health' })).status).toBe(200);
      const ready = await svc.request({ method: 'GET', url: '/ready' });
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ ready: true });
    } finally {
      await svc.close();
    }
  });
});

// ---- Dockerfile ------------------------------------------------------------------------------

interface Instruction {
  op: string;
  args: string;
}

function dockerfileInstructions(text: string): Instruction[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

/** .dockerignore semantics (Go filepath.Match plus `**`; a pattern excludes a path and everything under it; `!` re-includes). */
function dockerIgnored(patterns: string[], path: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const pattern = (negate ? raw.slice(1) : raw).replace(/^\/+/, '').replace(/\/+$/, '');
    const regex = new RegExp(
      `^${pattern
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\.\*\//g, '(?:.*/)?')}(?:/.*)?$`,
    );
    if (regex.test(path)) ignored = !negate;
  }
  return ignored;
}

function readDockerignore(): string[] {
  return readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

interface WorkspacePackage {
  name: string;
  dir: string;
  manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; exports?: Record<string, string> };
}

function workspacePackages(): Map<string, WorkspacePackage> {
  const out = new Map<string, WorkspacePackage>();
  for (const group of ['packages', 'services']) {
    for (const entry of readdirSync(join(REPO_ROOT, group))) {
      const file = join(REPO_ROOT, group, entry, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      out.set(manifest.name, { name: manifest.name, dir: dirname(file), manifest });
    }
  }
  return out;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * Every source file `bin.ts` can load (static and dynamic imports, across workspace packages),
 * with the bare imports each makes; type-only imports are erased by Node and skipped.
 */
function runtimeImportGraph(): { files: Set<string>; problems: string[] } {
  const packages = workspacePackages();
  const owners = [...packages.values()];
  const ownerOf = (file: string) => owners.find((p) => file.startsWith(`${p.dir}/`))!;
  const files = new Set<string>();
  const problems: string[] = [];
  const queue = [join(REPO_ROOT, 'packages/server/src/bin.ts')];
  const importRe = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const owner = ownerOf(file);
    const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of source.matchAll(importRe)) {
      if (match[1]) continue;
      const specifier = (match[2] ?? match[3])!;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (!existsSync(target)) problems.push(`${relative(REPO_ROOT, file)}: ${specifier} does not exist`);
        else queue.push(target);
        continue;
      }
      if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      const name = packageName(specifier);
      if (!owner.manifest.dependencies?.[name]) {
        problems.push(`${relative(REPO_ROOT, file)} imports ${name}, which is not in the dependencies of ${owner.name} (pnpm install --prod leaves it out)`);
        continue;
      }
      const workspace = packages.get(name);
      if (workspace) {
        const subpath = specifier === name ? '.' : `.${specifier.slice(name.length)}`;
        const exported = workspace.manifest.exports?.[subpath];
        if (!exported) problems.push(`${specifier}: ${name} exports no ${subpath}`);
        else queue.push(join(workspace.dir, exported));
      }
    }
  }
  return { files, problems };
}

describe('Dockerfile', () => {
  const text = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const instructions = dockerfileInstructions(text);
  const ignore = readDockerignore();

  it('builds on Node 24 in stages and runs as a non-root user whose uid the pods pin', () => {
    const args = new Map(instructions.filter((i) => i.op === 'ARG').map((i) => i.args.split('=') as [string, string]));
    const froms = instructions
      .filter((i) => i.op === 'FROM')
      .map((i) => i.args.split(/\s+/)[0]!.replace(/^\$\{(\w+)\}$/, (_, name: string) => args.get(name) ?? name));
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const image of froms) expect(image).toMatch(/^node:24(-|$)/);
    const lastFrom = instructions.map((i) => i.op).lastIndexOf('FROM');
    const users = instructions.slice(lastFrom).filter((i) => i.op === 'USER');
    expect(users.length).toBe(1);
    expect(users[0]!.args).toBe('1000:1000');
    // Every service's Deployment comes from this component (the rendered profiles are checked above).
    const deployment = parseManifests(readFileSync(join(K8S_DIR, 'components/service/deployment.yaml'), 'utf8')).find((m) => m.kind === 'Deployment')!;
    expect(deployment.spec.template.spec.securityContext.runAsUser).toBe(1000);
  });

  it('enters through bin.ts with type stripping, so args or TARGET choose the service', () => {
    const entrypoint = instructions.find((i) => i.op === 'ENTRYPOINT')!;
    const argv = JSON.parse(entrypoint.args) as string[];
    expect(argv[0]).toBe('node');
    expect(argv).toContain('--experimental-strip-types');
    const script = argv.at(-1)!;
    expect(script).toBe('packages/server/src/bin.ts');
    expect(existsSync(join(REPO_ROOT, script))).toBe(true);
    expect(readFileSync(join(REPO_ROOT, script), 'utf8')).toContain('process.env.TARGET');
    expect(instructions.some((i) => i.op === 'RUN' && /pnpm install .*--frozen-lockfile/.test(i.args) && /--prod\b/.test(i.args))).toBe(true);
  });

  it('copies only files that exist and that .dockerignore lets into the context', () => {
    const copies = instructions.filter((i) => i.op === 'COPY' && !/--from=/.test(i.args));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const parts = copy.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      for (const source of parts.slice(0, -1)) {
        if (source === '.') continue;
        expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
        expect(dockerIgnored(ignore, source), source).toBe(false);
      }
    }
  });

  it('.dockerignore keeps local state out and every runtime file in', () => {
    for (const path of [
      'node_modules',
      'packages/queue/node_modules/bullmq/package.json',
      'data/catalog.db',
      '.git/HEAD',
      'services/catalog/src/features/jobs/job-service.test.ts',
    ]) {
      expect(dockerIgnored(ignore, path), path).toBe(true);
    }
    for (const path of ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'services/catalog/package.json'])
      expect(dockerIgnored(ignore, path), path).toBe(false);
    const { files } = runtimeImportGraph();
    expect(files.size).toBeGreaterThan(50);
    const excluded = [...files].map((f) => relative(REPO_ROOT, f)).filter((f) => dockerIgnored(ignore, f));
    expect(excluded).toEqual([]);
  });

  it('needs only production dependencies at run time (the image installs with --prod)', () => {
    const { files, problems } = runtimeImportGraph();
    expect(problems).toEqual([]);
    // The graph reaches every service through the lazy module loaders.
    for (const service of SERVICE_NAMES)
      expect(
        [...files].some((f) => f.includes(`/services/${service}/src/`)),
        service,
      ).toBe(true);
  });
});
