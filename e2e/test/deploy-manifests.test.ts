/**
 * Validates the deployment artefacts without a cluster or a Docker daemon:
 * - deploy/k8s: base and every overlay rendered by kustomize (scripts/kustomize.sh; compared with
 *   `kubectl kustomize`, which `kubectl apply -k` uses, where kubectl is installed), each document checked against the Kubernetes
 *   JSON schemas shipped in `kubernetes-models`, and the custom resources against the schemas of
 *   their CRDs (`@kubernetes-models/keda` for KEDA's ScaledObject, `@kubernetes-models/prometheus-operator`
 *   for ServiceMonitor and PrometheusRule, both generated from the projects' CRD definitions), then
 *   the project's own rules (probes on the real endpoints, resources, PDBs, the worker scaled by
 *   KEDA on the queue, env names known to the config schemas, service URLs that resolve to Services
 *   selecting the right pods, per-service Secrets holding only what each service reads, the
 *   NetworkPolicies evaluated connection by connection against the call graph, the Ingress, the
 *   ServiceMonitor reaching every metrics port, and every PromQL expression of the alerts, the
 *   autoscaler and the Grafana dashboard parsed with Prometheus's grammar and naming only
 *   metrics the process registers).
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
import { RuntimeConfig } from '@crawl/runtime';
import { MODULE_LOADERS } from '@crawl/server';
import { startTestService } from '@crawl/server/testing';
import { describe, expect, it } from 'vitest';
import { findKustomize, K8S_DIR, overlays, parseManifests, renderKustomization, type Manifest } from '../../deploy/k8s/render.ts';
import { allowed, type Endpoint } from './k8s/network-policy-evaluator.ts';
import { parsePromQL, seriesNames } from './k8s/promql-names.ts';
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
/**
 * What each service's own Secret (crawl-<service>-secrets) holds, and nothing more: MONGO_URL for
 * the services that own data (checked against the modules below), REDIS_URL where queues or shared
 * limits are used (auth uses neither), JWT_SECRET where user tokens are signed or verified (and
 * catalog's webhook secrets key is derived from it), INTERNAL_SECRET everywhere.
 */
const SECRET_KEYS: Record<ServiceName, string[]> = {
  gateway: ['REDIS_URL', 'JWT_SECRET', 'INTERNAL_SECRET'],
  auth: ['MONGO_URL', 'JWT_SECRET', 'INTERNAL_SECRET'],
  catalog: ['MONGO_URL', 'REDIS_URL', 'JWT_SECRET', 'INTERNAL_SECRET'],
  billing: ['MONGO_URL', 'REDIS_URL', 'INTERNAL_SECRET'],
  'crawler-worker': ['REDIS_URL', 'INTERNAL_SECRET'],
};
const secretName = (service: ServiceName) => `crawl-${service}-secrets`;

/** The custom resources' models, generated from their CRDs' schemas; core kinds come from kubernetes-models. */
const CRD_MODELS: Record<string, () => Promise<Record<string, unknown>>> = {
  'keda.sh/v1alpha1': () => import('@kubernetes-models/keda/keda.sh/v1alpha1'),
  'monitoring.coreos.com/v1': () => import('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1'),
};

async function validateSchema(manifest: Manifest): Promise<void> {
  const crd = CRD_MODELS[manifest.apiVersion];
  const module: any = await (crd ? crd() : import(`kubernetes-models/${manifest.apiVersion}/${manifest.kind}`)).catch(() => undefined);
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
    // …and so do the CRDs' schemas.
    const scaledObject = {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'x' },
      spec: { scaleTargetRef: { name: 'x' }, triggers: [{ metadata: {} }] },
    };
    await expect(validateSchema(scaledObject)).rejects.toThrow(/triggers\/0 must have required property type/);
    const rule = {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'x' },
      spec: { groups: [{ name: 'g', rules: [{ alert: 'A' }] }] },
    };
    await expect(validateSchema(rule)).rejects.toThrow(/rules\/0 must have required property expr/);
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

  it('has a PodDisruptionBudget per service, and scales the workers with KEDA on the crawl queue, never on CPU', () => {
    const pdbs = byKind(manifests, 'PodDisruptionBudget');
    for (const { service, podLabels } of deployments) {
      expect(pdbs.filter((p) => selects(p.spec.selector.matchLabels, podLabels)).length, service).toBe(1);
    }
    // CPU says nothing of a worker's load: its throughput is bound by the upstream budget.
    expect(byKind(manifests, 'HorizontalPodAutoscaler')).toEqual([]);
    const worker = deployments.find((d) => d.service === 'crawler-worker')!;
    const scaledObjects = byKind(manifests, 'ScaledObject');
    if (profile.name === 'production') expect(scaledObjects.length).toBe(1);
    if (profile.name === 'dev') expect(worker.deployment.spec.replicas).toBe(1);
    for (const scaled of scaledObjects) {
      expect(scaled.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: worker.deployment.metadata.name });
      expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(scaled.spec.maxReplicaCount).toBeGreaterThan(scaled.spec.minReplicaCount);
      // KEDA owns the count: a replicas field would reset it on every apply.
      expect(worker.deployment.spec.replicas).toBeUndefined();
      expect(scaled.spec.triggers).toHaveLength(1);
      const [trigger] = scaled.spec.triggers;
      expect(trigger.type).toBe('prometheus');
      expect(Number(trigger.metadata.threshold)).toBeGreaterThan(0);
      // The waiting tasks of the crawl queue, of this installation's namespace only.
      const query = String(trigger.metadata.query);
      expect(parsePromQL(query)).toEqual({ errors: [], metrics: ['crawl_queue_depth'] });
      expect(query).toContain('queue="crawl-targets"');
      expect(query).toContain('state="waiting"');
      expect(query).toContain(`namespace="${scaled.metadata.namespace ?? 'crawl'}"`);
    }
  });

  it('gives every service only settings its config schemas know, and the URLs of the services it calls, which resolve to Services selecting those pods', async () => {
    const known = await knownEnv();
    const settingsMaps = byKind(manifests, 'ConfigMap').filter((cm) =>
      deployments.some(({ container }) => (container.envFrom ?? []).some((ref: any) => ref.configMapRef?.name === cm.metadata.name)),
    );
    expect(settingsMaps.length).toBeGreaterThan(0);
    for (const cm of settingsMaps) {
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

  it('gives each service its own Secret with only what it reads: no database credentials for the gateway and the worker, no JWT secret for billing and the worker', async () => {
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
      ).toEqual([secretName(service)]);
      // Nothing else brings a secret in.
      expect((container.env ?? []).filter((e: any) => e.valueFrom?.secretKeyRef)).toEqual([]);
      // A database URL exactly where the module owns data.
      const module = await MODULE_LOADERS[service]();
      expect(SECRET_KEYS[service].includes('MONGO_URL'), service).toBe(module.ownsData === true);
    }
    expect(SECRET_KEYS.gateway).not.toContain('MONGO_URL');
    expect(SECRET_KEYS['crawler-worker']).toEqual(['REDIS_URL', 'INTERNAL_SECRET']);
    const secrets = byKind(manifests, 'Secret');
    if (profile.name === 'dev') {
      expect(secrets.map((m) => m.metadata.name).sort()).toEqual(SERVICE_NAMES.map(secretName).sort());
      for (const service of SERVICE_NAMES) {
        const secret = secrets.find((m) => m.metadata.name === secretName(service))!;
        expect(Object.keys(secret.stringData ?? {}).sort(), service).toEqual([...SECRET_KEYS[service]].sort());
        for (const key of ['JWT_SECRET', 'INTERNAL_SECRET'])
          if (secret.stringData[key] !== undefined) expect(Buffer.byteLength(String(secret.stringData[key])), `${service} ${key}`).toBeGreaterThanOrEqual(32);
      }
      // One value of each shared secret across the services.
      for (const key of ['JWT_SECRET', 'INTERNAL_SECRET', 'REDIS_URL', 'MONGO_URL'])
        expect(new Set(secrets.map((m) => m.stringData[key]).filter((v) => v !== undefined)).size, key).toBe(1);
    } else {
      // Real secrets never live in the repository: production creates them itself, as documented.
      expect(secrets).toEqual([]);
      const docs = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
      for (const service of SERVICE_NAMES) {
        const row = docs.split('\n').find((line) => line.includes(`\`${secretName(service)}\``));
        expect(row, `docs/deploy.md names ${secretName(service)}`).toBeDefined();
        for (const key of SECRET_KEYS[service]) expect(row, `${secretName(service)}: ${key}`).toContain(key);
      }
    }
    if (isOverlay) expect(manifests.every((m) => m.kind === 'Namespace' || typeof m.metadata.namespace === 'string')).toBe(true);
  });

  it('exposes each service but the crawler-worker through a Service whose selector and target ports match its pods; the worker only its metrics port', () => {
    for (const { service, podLabels, container, env } of deployments) {
      const ports = new Map((container.ports as any[]).map((p) => [p.name, p.containerPort]));
      // /metrics is served on a port of its own, declared on the pod.
      expect(ports.get('metrics'), service).toBe(Number(env.get('METRICS_PORT')));
      const services = byKind(manifests, 'Service').filter((s) => selects(s.spec.selector, podLabels));
      expect(services.length, service).toBe(1);
      const [svc] = services;
      for (const port of svc!.spec.ports as any[]) expect(ports.has(port.targetPort), `${service}: ${port.targetPort}`).toBe(true);
      const targets = (svc!.spec.ports as any[]).map((p) => p.targetPort).sort();
      // The crawler-worker serves no routes (work comes from the queue): its Service is headless, for Prometheus.
      if (service === 'crawler-worker') {
        expect(targets, service).toEqual(['metrics']);
        expect(svc!.spec.clusterIP).toBe('None');
      } else expect(targets, service).toEqual(['http', 'metrics']);
    }
  });

  it('admits exactly the connections the call graph needs (NetworkPolicies, evaluated connection by connection)', () => {
    const policies = byKind(manifests, 'NetworkPolicy');
    const namespace = isOverlay ? (deployments[0]!.deployment.metadata.namespace as string) : 'default';
    const at = (p: Manifest): Manifest => ({ ...p, metadata: { ...p.metadata, namespace: p.metadata.namespace ?? 'default' } });
    const all = policies.map(at);
    // Default deny, both ways, for every pod of the namespace.
    expect(
      all.some(
        (p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress && !p.spec.egress && p.spec.policyTypes.sort().join() === 'Egress,Ingress',
      ),
    ).toBe(true);
    const pods = new Map<ServiceName, Endpoint>(
      deployments.map(({ service, container, podLabels }) => [
        service,
        { name: service, namespace, labels: podLabels, ports: Object.fromEntries((container.ports as any[]).map((p) => [p.name, p.containerPort])) },
      ]),
    );
    const pod = (service: ServiceName) => pods.get(service)!;
    const ingressController: Endpoint = { name: 'ingress controller', namespace: 'ingress-nginx', labels: { 'app.kubernetes.io/name': 'ingress-nginx' } };
    const prometheus: Endpoint = { name: 'prometheus', namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } };
    const stranger: Endpoint = { name: 'another pod of the namespace', namespace, labels: { app: 'other' } };
    const dns: Endpoint = { name: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' }, ports: { dns: 53 } };
    const marketplace: Endpoint = { name: 'a public address', ip: '203.0.113.10' };
    const privateAddress: Endpoint = { name: 'a private address', ip: '10.1.2.3' };
    const metadataService: Endpoint = { name: 'the cloud metadata service', ip: '169.254.169.254' };
    const datastore: Endpoint = { name: 'a managed data store', ip: '10.20.0.5' };

    const calls = (from: ServiceName) => new Set(NEEDS_URLS[from].map((key) => URL_OWNER[key]!));
    for (const from of SERVICE_NAMES) {
      for (const to of SERVICE_NAMES) {
        const expected = calls(from).has(to);
        expect(allowed(all, pod(from), pod(to), { port: 'http' }), `${from} → ${to}`).toBe(expected);
        // Metrics ports are for Prometheus only.
        expect(allowed(all, pod(from), pod(to), { port: 'metrics' }), `${from} → ${to} metrics`).toBe(false);
      }
      expect(allowed(all, ingressController, pod(from), { port: 'http' }), `ingress → ${from}`).toBe(from === 'gateway');
      expect(allowed(all, stranger, pod(from), { port: 'http' }), `stranger → ${from}`).toBe(false);
      expect(allowed(all, prometheus, pod(from), { port: 'metrics' }), `prometheus → ${from} metrics`).toBe(true);
      expect(allowed(all, prometheus, pod(from), { port: 'http' }), `prometheus → ${from} http`).toBe(false);
      expect(allowed(all, pod(from), dns, { protocol: 'UDP', port: 53 }), `${from} → DNS`).toBe(true);
      // HTTPS to public addresses: the worker (marketplace) and catalog (webhooks) only; never private or metadata addresses.
      expect(allowed(all, pod(from), marketplace, { port: 443 }), `${from} → public 443`).toBe(from === 'crawler-worker' || from === 'catalog');
      expect(allowed(all, pod(from), marketplace, { port: 80 }), `${from} → public 80`).toBe(false);
      expect(allowed(all, pod(from), privateAddress, { port: 443 }), `${from} → private 443`).toBe(false);
      expect(allowed(all, pod(from), metadataService, { port: 80 }), `${from} → metadata`).toBe(false);
      // The data stores only for the services whose Secret holds their URL.
      expect(allowed(all, pod(from), datastore, { port: 27017 }), `${from} → MongoDB`).toBe(SECRET_KEYS[from].includes('MONGO_URL'));
      expect(allowed(all, pod(from), datastore, { port: 6379 }), `${from} → Redis`).toBe(SECRET_KEYS[from].includes('REDIS_URL'));
    }
    // The dev profile's own MongoDB and Redis pods admit the same services, and nobody else.
    for (const [name, port, key] of [
      ['crawl-mongodb', 'mongodb', 'MONGO_URL'],
      ['crawl-redis', 'redis', 'REDIS_URL'],
    ] as const) {
      const deployment = manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === name);
      if (!deployment) continue;
      const store: Endpoint = {
        name,
        namespace,
        labels: deployment.spec.template.metadata.labels,
        ports: Object.fromEntries((deployment.spec.template.spec.containers[0].ports as any[]).map((p) => [p.name, p.containerPort])),
      };
      for (const from of SERVICE_NAMES) expect(allowed(all, pod(from), store, { port }), `${from} → ${name}`).toBe(SECRET_KEYS[from].includes(key));
      expect(allowed(all, stranger, store, { port }), `stranger → ${name}`).toBe(false);
    }
  });

  it('routes the Ingress, where there is one, to the gateway only, with TLS by annotation', () => {
    const ingresses = byKind(manifests, 'Ingress');
    if (profile.name === 'production') expect(ingresses.length).toBe(1);
    const gateway = deployments.find((d) => d.service === 'gateway')!;
    for (const ingress of ingresses) {
      const annotations = (ingress.metadata.annotations ?? {}) as Record<string, string>;
      expect(annotations['cert-manager.io/cluster-issuer'] ?? annotations['cert-manager.io/issuer']).toBeTruthy();
      const tlsHosts = new Set((ingress.spec.tls as any[]).flatMap((t) => t.hosts));
      for (const rule of ingress.spec.rules as any[]) {
        expect(tlsHosts.has(rule.host), rule.host).toBe(true);
        for (const path of rule.http.paths as any[]) {
          const svc = manifests.find((m) => m.kind === 'Service' && m.metadata.name === path.backend.service.name);
          expect(selects(svc?.spec.selector, gateway.podLabels), path.backend.service.name).toBe(true);
          expect((svc!.spec.ports as any[]).find((p) => p.name === path.backend.service.port.name)?.targetPort).toBe('http');
        }
      }
      // Behind the gateway, billing's links (referrals) and catalog's (webhook payloads) need the public address.
      const config = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'crawl-config')?.data as Record<string, string>;
      const host = (ingress.spec.rules as any[])[0].host as string;
      expect(config.PUBLIC_BASE_URL).toBe(`https://${host}`);
      expect(config.WEBHOOK_PUBLIC_BASE_URL).toBe(`https://${host}`);
    }
  });

  it('scrapes every service: the ServiceMonitor selects a Service of each with the metrics port, named by its component', () => {
    const monitors = byKind(manifests, 'ServiceMonitor');
    if (profile.name === 'production') expect(monitors.length).toBe(1);
    for (const monitor of monitors) {
      expect(monitor.spec.jobLabel).toBe('app.kubernetes.io/component');
      const endpointPorts = new Set((monitor.spec.endpoints as any[]).map((e) => e.port));
      for (const { service, podLabels } of deployments) {
        const scraped = byKind(manifests, 'Service').filter(
          (s) => selects(monitor.spec.selector.matchLabels, s.metadata.labels as Record<string, string>) && selects(s.spec.selector, podLabels),
        );
        expect(scraped.length, service).toBe(1);
        expect((scraped[0]!.metadata.labels as Record<string, string>)['app.kubernetes.io/component'], service).toBe(service);
        expect(
          (scraped[0]!.spec.ports as any[]).some((p) => endpointPorts.has(p.name) && p.targetPort === 'metrics'),
          service,
        ).toBe(true);
      }
      for (const endpoint of monitor.spec.endpoints as any[]) expect(endpoint.path ?? '/metrics').toBe('/metrics');
    }
  });
});

/** Every family the process registers, from a running all-in-one's registry (what /metrics renders). */
async function registeredSeries(): Promise<Set<string>> {
  const svc = await startTestService();
  try {
    const families = await svc.process.metrics.registry.getMetricsAsJSON();
    return seriesNames(families.map((f) => ({ name: f.name, type: String(f.type) })));
  } finally {
    await svc.close();
  }
}

/** Prometheus's own series (not registered by the process). */
const PROMETHEUS_SERIES = new Set(['up']);

describe.runIf('path' in kustomize)('alerts, autoscaler and dashboard', () => {
  const production = 'path' in kustomize ? renderKustomization(join(K8S_DIR, 'overlays/production')) : [];
  const rules = production.filter((m) => m.kind === 'PrometheusRule').flatMap((m) => (m.spec.groups as any[]).flatMap((g) => g.rules as any[]));
  const dashboardFile = join(K8S_DIR, 'components/monitoring/crawl-dashboard.json');
  const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8'));
  const panelExprs = (dashboard.panels as any[]).flatMap((panel) =>
    (panel.targets ?? []).map((t: any) => ({ where: `panel "${panel.title}"`, expr: String(t.expr) })),
  );
  const expressions = [
    ...rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: String(rule.expr) })),
    ...production
      .filter((m) => m.kind === 'ScaledObject')
      .flatMap((m) => (m.spec.triggers as any[]).map((t) => ({ where: `ScaledObject ${m.metadata.name}`, expr: String(t.metadata.query) }))),
    ...panelExprs,
  ];

  it('parses every expression with PromQL grammar and names only metrics the process registers', async () => {
    const known = await registeredSeries();
    expect(known.has('crawl_queue_oldest_waiting_seconds')).toBe(true);
    expect(known.has('crawl_http_request_duration_seconds_count')).toBe(true);
    expect(expressions.length).toBeGreaterThan(30);
    for (const { where, expr } of expressions) {
      const parsed = parsePromQL(expr);
      expect(parsed.errors, `${where}: ${expr}`).toEqual([]);
      expect(parsed.metrics.length, `${where} reads no metric`).toBeGreaterThan(0);
      for (const metric of parsed.metrics)
        expect(known.has(metric) || PROMETHEUS_SERIES.has(metric), `${where}: ${metric} is not a registered metric`).toBe(true);
    }
    // The checks catch a misspelt metric and a broken expression.
    expect(parsePromQL('sum(rate(crawl_upstream_blocks[5m]))').metrics.some((m) => !known.has(m))).toBe(true);
    expect(parsePromQL('sum(rate(crawl_upstream_blocks_total[5m])').errors).not.toEqual([]);
  });

  it('has the alerts that matter, each with a severity, a summary and a runbook in docs/operations.md', () => {
    const operations = readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8');
    const anchors = new Set(
      [...operations.matchAll(/^#+\s+(.+)$/gm)].map((m) =>
        m[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const metricsOf = (alert: string) => parsePromQL(String(rules.find((r) => r.alert === alert)?.expr ?? '')).metrics;
    // Queue age, block rate, 5xx rate, settlement backlog, webhook failure rate, at least.
    expect(metricsOf('CrawlQueueOldestTaskWaiting')).toContain('crawl_queue_oldest_waiting_seconds');
    expect(metricsOf('CrawlUpstreamBlockRateHigh')).toEqual(expect.arrayContaining(['crawl_upstream_blocks_total', 'crawl_upstream_requests_total']));
    expect(metricsOf('CrawlApiErrorRateHigh')).toContain('crawl_http_request_duration_seconds_count');
    expect(metricsOf('CrawlSettlementBacklog')).toEqual(
      expect.arrayContaining(['crawl_jobs_finished_total', 'crawl_credits_captured_total', 'crawl_credits_refunded_total']),
    );
    expect(metricsOf('CrawlWebhookFailureRateHigh')).toContain('crawl_webhook_attempts_total');
    for (const rule of rules) {
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      const runbook = String(rule.annotations?.runbook_url ?? '');
      expect(runbook, rule.alert).toBe(`docs/operations.md#${rule.alert.toLowerCase()}`);
      expect(anchors.has(rule.alert.toLowerCase()), `docs/operations.md has no section ${rule.alert}`).toBe(true);
    }
  });

  it('ships the Grafana dashboard as JSON with panels on those metrics, and as the ConfigMap Grafana imports', () => {
    expect(dashboard.uid).toBeTruthy();
    expect(panelExprs.length).toBeGreaterThan(20);
    const ids = (dashboard.panels as any[]).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels as any[]) {
      if (panel.type === 'row') continue;
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
    }
    const configMap = production.find((m) => m.kind === 'ConfigMap' && (m.metadata.labels as Record<string, string> | undefined)?.grafana_dashboard === '1');
    expect(configMap?.data['crawl-dashboard.json']).toBe(readFileSync(dashboardFile, 'utf8'));
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
  for (const group of ['apps', 'packages', 'services']) {
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
  const queue = [join(REPO_ROOT, 'apps/server/src/bin.ts')];
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
    expect(script).toBe('apps/server/src/bin.ts');
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
