import { randomUUID } from 'node:crypto';
import { DESTINATION_LIMITS, type CreateDestinationBody, type DestinationTestResult } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import { errors } from '@crawl/errors';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../shared/actor.ts';
import { checkWebhookUrl, WebhookUrlError, type Resolver, type UrlRules } from '../webhooks/index.ts';
import type { SecretBox } from '../webhooks/index.ts';
import { keyUnder, normalisePrefix, type DestinationDoc } from './destination-model.ts';
import type { DestinationRepository } from './destination-repository.ts';
import { ObjectSinkError, type ObjectSink, type ObjectSinkFactory } from './object-sink.ts';

export interface DestinationServiceOptions {
  destinations: DestinationRepository;
  projects: ProjectService;
  audit: AuditLog;
  clock: Clock;
  /** Seals credentials at rest (the webhook secrets' box and key). */
  box: SecretBox;
  /** The webhook URL rules, applied to a custom endpoint. */
  rules: UrlRules;
  resolver: Resolver;
  sinks: ObjectSinkFactory;
}

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** A project's destinations: create (after a test write), list, read, delete, test; and a sink to write through. */
export class DestinationService {
  readonly #options: DestinationServiceOptions;
  readonly #destinations: DestinationRepository;

  constructor(options: DestinationServiceOptions) {
    this.#options = options;
    this.#destinations = options.destinations;
  }

  #now(): string {
    return this.#options.clock.now().toISOString();
  }

  /** The endpoint as the webhook rules allow it (scheme, no private or loopback address). @throws 400 */
  async checkEndpoint(endpoint: string): Promise<string> {
    try {
      const { checked } = await checkWebhookUrl(endpoint, this.#options.rules, this.#options.resolver);
      if (checked.url.search !== '' || (checked.url.pathname !== '/' && checked.url.pathname !== ''))
        throw new WebhookUrlError('endpoint must not have a path or query');
      return checked.url.origin;
    } catch (error) {
      if (error instanceof WebhookUrlError) {
        const message = error.message.replace(/^url/, 'endpoint');
        throw errors.validation(message, [message]);
      }
      throw error;
    }
  }

  async create(actor: Actor, projectId: string, body: CreateDestinationBody, requestId?: string): Promise<DestinationDoc> {
    await this.#options.projects.getOwned(actor.organizationId, projectId);
    const endpoint = body.endpoint === undefined ? null : await this.checkEndpoint(body.endpoint);
    const existing = await this.#destinations.countForProject(actor.organizationId, projectId);
    if (existing >= DESTINATION_LIMITS.destinationsPerProject)
      throw errors.conflict(`A project has at most ${DESTINATION_LIMITS.destinationsPerProject} destinations`);
    const now = this.#now();
    const credentials: Credentials = { accessKeyId: body.accessKeyId, secretAccessKey: body.secretAccessKey };
    const doc: DestinationDoc = {
      _id: newId('dst_'),
      organizationId: actor.organizationId,
      projectId,
      type: 's3',
      name: body.name?.trim() ?? '',
      bucket: body.bucket,
      prefix: normalisePrefix(body.prefix),
      region: body.region,
      endpoint,
      sealedCredentials: this.#options.box.seal(JSON.stringify(credentials)),
      format: body.format ?? 'ndjson',
      gzip: body.gzip ?? true,
      lastTestAt: null,
      lastTestError: null,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    const test = await this.#writeTestObject(doc);
    if (!test.ok) throw errors.validation(`The test object could not be written: ${test.error}`, [test.error ?? 'unknown']);
    await this.#destinations.insert({ ...doc, lastTestAt: this.#now() });
    await this.#options.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'destination.create',
      resourceType: 'destination',
      resourceId: doc._id,
      requestId,
      metadata: { projectId, bucket: doc.bucket, endpoint: endpoint ?? 'aws' },
    });
    return { ...doc, lastTestAt: this.#now() };
  }

  async list(organizationId: string, projectId: string, page: { offset: number; limit: number }) {
    await this.#options.projects.getOwned(organizationId, projectId);
    return this.#destinations.listForProject(organizationId, projectId, page);
  }

  async getOwned(organizationId: string, id: string): Promise<DestinationDoc> {
    const destination = await this.#destinations.findOwned(organizationId, id);
    if (!destination) throw errors.notFound('Destination');
    return destination;
  }

  /** The project of an organization's destination, or null when it has none of that id (the jobs' DestinationLookup). */
  async projectOf(organizationId: string, id: string): Promise<string | null> {
    return (await this.#destinations.findOwned(organizationId, id))?.projectId ?? null;
  }

  async remove(actor: Actor, id: string, requestId?: string): Promise<void> {
    if (!(await this.#destinations.remove(actor.organizationId, id))) throw errors.notFound('Destination');
    await this.#options.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action: 'destination.delete',
      resourceType: 'destination',
      resourceId: id,
      requestId,
      metadata: {},
    });
  }

  /** Writes a test object now and keeps the outcome on the destination. */
  async test(organizationId: string, id: string): Promise<DestinationTestResult> {
    const destination = await this.getOwned(organizationId, id);
    const result = await this.#writeTestObject(destination);
    await this.#destinations.recordTest(destination._id, this.#now(), result.error);
    return result;
  }

  /** A sink on the destination's bucket, its endpoint checked again (DNS may have changed). The caller closes it. */
  async openSink(destination: DestinationDoc): Promise<ObjectSink> {
    if (destination.endpoint !== null) await this.checkEndpoint(destination.endpoint);
    const credentials = JSON.parse(this.#options.box.open(destination.sealedCredentials)) as Credentials;
    return this.#options.sinks({
      bucket: destination.bucket,
      region: destination.region,
      endpoint: destination.endpoint ?? undefined,
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
    });
  }

  async #writeTestObject(destination: DestinationDoc): Promise<DestinationTestResult> {
    const key = keyUnder(destination.prefix, `_crawl-test/${randomUUID()}.json`);
    const started = Date.now();
    let sink: ObjectSink | undefined;
    try {
      sink = await this.openSink(destination);
      const body = JSON.stringify({ destinationId: destination._id, writtenAt: this.#now(), purpose: 'connection test' });
      await sink.put(key, body, 'application/json');
      return { ok: true, key, latencyMs: Date.now() - started, error: null };
    } catch (error) {
      if (!(error instanceof ObjectSinkError)) throw error;
      return { ok: false, key, latencyMs: Date.now() - started, error: error.message };
    } finally {
      sink?.close();
    }
  }
}
