import { type CreateDestinationBody, type Destination, type DestinationTestResult, DestinationRoutes, type ListDestinationsQuery } from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachItem, type ListPage } from '../paging.ts';

/** S3-compatible buckets a project's finished jobs are written to (docs/destinations.md). Credentials go in, never come back. */
export class DestinationsApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Writes a test object first: a bucket or key the store refuses is a 400 with the store's reason. */
  async create(projectId: string, body: CreateDestinationBody, options?: CallOptions): Promise<Destination> {
    return (await this.transport.call(DestinationRoutes.createDestination, { params: { projectId }, body }, options)).data;
  }

  async list(projectId: string, query: ListDestinationsQuery = {}, options?: CallOptions): Promise<Required<ListPage<Destination>>> {
    return this.transport.call(DestinationRoutes.listDestinations, { params: { projectId }, query }, options);
  }

  iterate(projectId: string, query: Omit<ListDestinationsQuery, 'offset'> = {}, options?: CallOptions): AsyncGenerator<Destination, void, undefined> {
    return eachItem((offset) => this.list(projectId, { ...query, offset } as ListDestinationsQuery, options));
  }

  async get(id: string, options?: CallOptions): Promise<Destination> {
    return (await this.transport.call(DestinationRoutes.getDestination, { params: { id } }, options)).data;
  }

  /** Jobs that name it afterwards are refused; objects already written stay in the bucket. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.call(DestinationRoutes.deleteDestination, { params: { id } }, options);
  }

  /** Writes a test object now (5 per minute per destination); `ok: false` carries the store's reason. */
  async test(id: string, options?: CallOptions): Promise<DestinationTestResult> {
    return (await this.transport.call(DestinationRoutes.testDestination, { params: { id } }, options)).data;
  }
}
