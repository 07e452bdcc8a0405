import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  type AuditMetadata,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WebhookDisabledReason,
  type WebhookEventType,
} from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../shared/actor.ts';
import { checkWebhookUrl, WebhookUrlError, type Resolver, type UrlRules } from './address-guard.ts';
import type { DeliveryRepository } from './delivery-repository.ts';
import type { EndpointChanges, EndpointRepository } from './endpoint-repository.ts';
import { generateSecret, type SecretBox } from './signer.ts';
import type { EndpointDoc } from './webhook-model.ts';

export interface EndpointServiceOptions {
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  projects: ProjectService;
  audit: AuditLog;
  clock: Clock;
  /** Seals signing secrets at rest. */
  box: SecretBox;
  rules: UrlRules;
  resolver: Resolver;
  /** How long the previous secret keeps signing after a rotation. */
  secretOverlapMs: number;
}

const DEFAULT_EVENTS: WebhookEventType[] = [...WEBHOOK_EVENT_TYPES];

/** Webhook endpoints of a project (organization-scoped): create, list, update, delete, rotate the secret. */
export class EndpointService {
  readonly #endpoints: EndpointRepository;
  readonly #options: EndpointServiceOptions;

  constructor(options: EndpointServiceOptions) {
    this.#endpoints = options.endpoints;
    this.#options = options;
  }

  #now(): string {
    return this.#options.clock.now().toISOString();
  }

  async #checkUrl(url: string): Promise<string> {
    try {
      const { checked } = await checkWebhookUrl(url, this.#options.rules, this.#options.resolver);
      return checked.url.toString();
    } catch (error) {
      if (error instanceof WebhookUrlError) throw errors.validation(error.message, [error.message]);
      throw error;
    }
  }

  async create(actor: Actor, projectId: string, body: CreateWebhookBody, requestId?: string): Promise<{ endpoint: EndpointDoc; secret: string }> {
    await this.#options.projects.getOwned(actor.organizationId, projectId);
    const url = await this.#checkUrl(body.url);
    const existing = await this.#endpoints.countForProject(actor.organizationId, projectId);
    if (existing >= WEBHOOK_LIMITS.endpointsPerProject) throw errors.conflict(`A project has at most ${WEBHOOK_LIMITS.endpointsPerProject} webhook endpoints`);
    const now = this.#now();
    const secret = generateSecret();
    const enabled = body.enabled ?? true;
    const doc: EndpointDoc = {
      _id: newId('whk_'),
      organizationId: actor.organizationId,
      projectId,
      url,
      description: body.description?.trim() ?? '',
      events: body.events ? [...new Set(body.events)] : DEFAULT_EVENTS,
      enabled,
      disabledReason: enabled ? null : { code: 'user', message: 'Created disabled', at: now },
      secrets: [{ sealed: this.#options.box.seal(secret), createdAt: now, expiresAt: null }],
      failingSince: null,
      consecutiveFailures: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    await this.#endpoints.insert(doc);
    await this.#audit(actor, 'webhook.create', doc._id, requestId, { projectId, url, events: doc.events });
    return { endpoint: doc, secret };
  }

  async list(organizationId: string, projectId: string): Promise<EndpointDoc[]> {
    await this.#options.projects.getOwned(organizationId, projectId);
    return this.#endpoints.listForProject(organizationId, projectId);
  }

  async getOwned(organizationId: string, id: string): Promise<EndpointDoc> {
    const endpoint = await this.#endpoints.findOwned(organizationId, id);
    if (!endpoint) throw errors.notFound('Webhook');
    return endpoint;
  }

  async update(actor: Actor, id: string, patch: UpdateWebhookBody, requestId?: string): Promise<EndpointDoc> {
    const current = await this.getOwned(actor.organizationId, id);
    const now = this.#now();
    const set: EndpointChanges = { updatedAt: now };
    if (patch.url !== undefined) set.url = await this.#checkUrl(patch.url);
    if (patch.events !== undefined) set.events = [...new Set(patch.events)];
    if (patch.description !== undefined) set.description = patch.description.trim();
    if (patch.enabled === true && !current.enabled) {
      Object.assign(set, { enabled: true, disabledReason: null, failingSince: null, consecutiveFailures: 0 });
    } else if (patch.enabled === false && current.enabled) {
      Object.assign(set, { enabled: false, disabledReason: { code: 'user', message: 'Disabled through the API', at: now } satisfies WebhookDisabledReason });
    }
    const updated = await this.#endpoints.update(actor.organizationId, id, set);
    if (!updated) throw errors.notFound('Webhook');
    await this.#audit(actor, 'webhook.update', id, requestId, { changes: Object.keys(patch), enabled: updated.enabled });
    return updated;
  }

  /** Deletes the endpoint and its delivery log. */
  async remove(actor: Actor, id: string, requestId?: string): Promise<void> {
    const deleted = await this.#endpoints.remove(actor.organizationId, id);
    if (!deleted) throw errors.notFound('Webhook');
    await this.#options.deliveries.removeForEndpoint(actor.organizationId, id);
    await this.#audit(actor, 'webhook.delete', id, requestId, {});
  }

  /** A new current secret; the previous one keeps signing until the overlap ends. */
  async rotateSecret(actor: Actor, id: string, requestId?: string): Promise<{ endpoint: EndpointDoc; secret: string }> {
    for (let tries = 0; tries < 5; tries += 1) {
      const current = await this.getOwned(actor.organizationId, id);
      const now = this.#now();
      const expiresAt = new Date(this.#options.clock.now().getTime() + this.#options.secretOverlapMs).toISOString();
      const secret = generateSecret();
      const kept = current.secrets.map((s) => (s.expiresAt === null ? { ...s, expiresAt } : s)).filter((s) => s.expiresAt !== null && s.expiresAt > now);
      const secrets = [{ sealed: this.#options.box.seal(secret), createdAt: now, expiresAt: null }, ...kept];
      const updated = await this.#endpoints.replaceSecrets(actor.organizationId, id, current.secrets[0]?.sealed, secrets, now);
      if (updated) {
        await this.#audit(actor, 'webhook.rotate_secret', id, requestId, { previousSecretExpiresAt: kept.length > 0 ? expiresAt : null });
        return { endpoint: updated, secret };
      }
    }
    throw errors.conflict('The webhook changed concurrently; try again');
  }

  /** Signing secrets valid at `at`, current first, in the clear. */
  signingSecrets(endpoint: EndpointDoc, at: string): string[] {
    return endpoint.secrets.filter((s) => s.expiresAt === null || s.expiresAt > at).map((s) => this.#options.box.open(s.sealed));
  }

  async #audit(actor: Actor, action: string, resourceId: string, requestId: string | undefined, metadata: AuditMetadata): Promise<void> {
    await this.#options.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action,
      resourceType: 'webhook',
      resourceId,
      requestId,
      metadata,
    });
  }
}
