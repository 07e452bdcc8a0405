import type { DocumentStore } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import type { JobLifecycle } from '../jobs/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { ResultStore } from '../results/index.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { systemResolver, type Resolver, type UrlRules } from '../webhooks/index.ts';
import { SecretBox } from '../webhooks/index.ts';
import { DestinationDeliveryRepository, DestinationRepository } from './destination-repository.ts';
import { DestinationService } from './destination-service.ts';
import { JobDeliveries } from './job-deliveries.ts';
import type { ObjectSinkFactory } from './object-sink.ts';

/** Seams for tests: another sink, resolver, jitter, part size. */
export interface DestinationSeams {
  sinks?: ObjectSinkFactory;
  resolver?: Resolver;
  random?: () => number;
  rowsPerPart?: number;
}

export interface DestinationsParts {
  store: DocumentStore;
  projects: ProjectService;
  jobs: JobLifecycle;
  results: ResultStore;
  audit: AuditLog;
  /** The webhook secrets' key material (WEBHOOK_SECRETS_KEY, else the JWT secret). */
  secretsKey: string;
  rules: UrlRules;
  sinks: ObjectSinkFactory;
  seams?: DestinationSeams | undefined;
}

/** Destinations: the API's service and the job deliveries, on their own repositories. */
export class Destinations {
  readonly service: DestinationService;
  readonly deliveries: JobDeliveries;
  readonly #repositories: { destinations: DestinationRepository; deliveries: DestinationDeliveryRepository };

  constructor(resources: CatalogResources, parts: DestinationsParts) {
    const destinations = new DestinationRepository(parts.store);
    const deliveries = new DestinationDeliveryRepository(parts.store);
    this.#repositories = { destinations, deliveries };
    const seams = parts.seams ?? {};
    this.service = new DestinationService({
      destinations,
      projects: parts.projects,
      audit: parts.audit,
      clock: resources.clock,
      box: new SecretBox(parts.secretsKey),
      rules: parts.rules,
      resolver: seams.resolver ?? systemResolver,
      sinks: seams.sinks ?? parts.sinks,
    });
    this.deliveries = new JobDeliveries({
      deliveries,
      destinations,
      service: this.service,
      jobs: parts.jobs,
      results: parts.results,
      clock: resources.clock,
      logger: resources.logger,
      ...(seams.random ? { random: seams.random } : {}),
      ...(seams.rowsPerPart ? { rowsPerPart: seams.rowsPerPart } : {}),
    });
  }

  async init(): Promise<void> {
    await Promise.all([this.#repositories.destinations.init(), this.#repositories.deliveries.init()]);
  }
}
