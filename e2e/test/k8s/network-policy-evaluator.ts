/**
 * Decides, from rendered NetworkPolicies, whether one endpoint may open a TCP/UDP connection to
 * another, as Kubernetes specifies it: with no policy selecting a pod for a direction everything
 * is allowed that way; otherwise a connection must be allowed by some selecting policy on the
 * source's egress and on the destination's ingress. Covers what the manifests use: pod selectors
 * (matchLabels, matchExpressions In/NotIn/Exists/DoesNotExist), namespace selectors on
 * `kubernetes.io/metadata.name`, IPv4 ipBlocks with `except`, and ports by number or by the
 * destination container port's name.
 */
import type { Manifest } from '../../../deploy/k8s/render.ts';

export interface Endpoint {
  /** For messages. */
  name: string;
  /** A pod in a namespace (labels), or an address outside the cluster. */
  namespace?: string;
  labels?: Record<string, string>;
  ip?: string;
  /** Named container ports of a pod (name → number). */
  ports?: Record<string, number>;
}

export interface Connection {
  protocol?: 'TCP' | 'UDP';
  /** A port number, or a name of the destination's container ports. */
  port: number | string;
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: Array<{ protocol?: string; port?: number | string; endPort?: number }>;
}

export function matchesSelector(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, key);
    const ok =
      operator === 'In'
        ? has && values.includes(labels[key] as string)
        : operator === 'NotIn'
          ? !has || !values.includes(labels[key] as string)
          : operator === 'Exists'
            ? has
            : operator === 'DoesNotExist'
              ? !has
              : false;
    if (!ok) return false;
  }
  return true;
}

function ipv4(address: string): number | undefined {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return (((parts[0] as number) << 24) | ((parts[1] as number) << 16) | ((parts[2] as number) << 8) | (parts[3] as number)) >>> 0;
}

function inCidr(address: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const ip = ipv4(address);
  const net = ipv4(base as string);
  if (ip === undefined || net === undefined) return false;
  const size = Number(bits);
  const mask = size === 0 ? 0 : (0xffffffff << (32 - size)) >>> 0;
  return (ip & mask) === (net & mask);
}

function peerMatches(peer: Peer, endpoint: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock) {
    if (!endpoint.ip) return false;
    return inCidr(endpoint.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(endpoint.ip as string, cidr));
  }
  if (endpoint.namespace === undefined) return false;
  const namespaceOk = peer.namespaceSelector
    ? matchesSelector(peer.namespaceSelector, { 'kubernetes.io/metadata.name': endpoint.namespace })
    : endpoint.namespace === policyNamespace;
  return namespaceOk && matchesSelector(peer.podSelector ?? {}, endpoint.labels);
}

function portMatches(rule: Rule, destination: Endpoint, connection: Connection): boolean {
  if (!rule.ports || rule.ports.length === 0) return true;
  const protocol = connection.protocol ?? 'TCP';
  const number = typeof connection.port === 'number' ? connection.port : destination.ports?.[connection.port];
  return rule.ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    const wanted = typeof p.port === 'number' ? p.port : destination.ports?.[p.port];
    if (wanted === undefined || number === undefined) return false;
    return p.endPort ? number >= wanted && number <= p.endPort : number === wanted;
  });
}

function selecting(policies: Manifest[], endpoint: Endpoint, direction: 'Ingress' | 'Egress'): Manifest[] {
  return policies.filter((policy) => {
    // Unset policyTypes: Ingress, plus Egress when the policy has egress rules.
    const types: string[] = policy.spec.policyTypes ?? ['Ingress', ...(policy.spec.egress ? ['Egress'] : [])];
    return (
      types.includes(direction) && (policy.metadata.namespace ?? 'default') === endpoint.namespace && matchesSelector(policy.spec.podSelector, endpoint.labels)
    );
  });
}

/** Whether `source` may connect to `destination` under `policies` (all of one namespace or several). */
export function allowed(policies: Manifest[], source: Endpoint, destination: Endpoint, connection: Connection): boolean {
  const egressOk = (() => {
    if (source.namespace === undefined) return true; // outside the cluster: only the destination's ingress decides
    const selected = selecting(policies, source, 'Egress');
    if (selected.length === 0) return true;
    return selected.some((policy) =>
      ((policy.spec.egress ?? []) as Rule[]).some(
        (rule) =>
          (!rule.to || rule.to.length === 0 || rule.to.some((peer) => peerMatches(peer, destination, policy.metadata.namespace ?? 'default'))) &&
          portMatches(rule, destination, connection),
      ),
    );
  })();
  if (!egressOk) return false;
  if (destination.namespace === undefined) return true;
  const selected = selecting(policies, destination, 'Ingress');
  if (selected.length === 0) return true;
  return selected.some((policy) =>
    ((policy.spec.ingress ?? []) as Rule[]).some(
      (rule) =>
        (!rule.from || rule.from.length === 0 || rule.from.some((peer) => peerMatches(peer, source, policy.metadata.namespace ?? 'default'))) &&
        portMatches(rule, destination, connection),
    ),
  );
}
