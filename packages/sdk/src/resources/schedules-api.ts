import { CatalogRoutes, type CreateScheduleBody, type Schedule, type UpdateScheduleBody } from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachItem, type ListPage } from '../paging.ts';
import type { RouteInput } from '../route-types.ts';

export class SchedulesApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  async create(projectId: string, body: CreateScheduleBody, options?: CallOptions): Promise<Schedule> {
    return (await this.transport.call(CatalogRoutes.createSchedule, { params: { projectId }, body }, options)).data;
  }

  /** A project's schedules (the first page, where the server pages them; `iterate` walks them all). */
  async list(projectId: string, options?: CallOptions): Promise<Schedule[]> {
    return (await this.page(projectId, 0, options)).data;
  }

  iterate(projectId: string, options?: CallOptions): AsyncGenerator<Schedule, void, undefined> {
    return eachItem((offset) => this.page(projectId, offset, options));
  }

  async update(id: string, body: UpdateScheduleBody, options?: CallOptions): Promise<Schedule> {
    return (await this.transport.call(CatalogRoutes.updateSchedule, { params: { id }, body }, options)).data;
  }

  enable(id: string, options?: CallOptions): Promise<Schedule> {
    return this.update(id, { enabled: true }, options);
  }

  disable(id: string, options?: CallOptions): Promise<Schedule> {
    return this.update(id, { enabled: false }, options);
  }

  private async page(projectId: string, offset: number, options?: CallOptions): Promise<ListPage<Schedule>> {
    // `offset` only goes out when an answer's `meta` said there is more: servers that do not page this list accept no query.
    const input = { params: { projectId }, ...(offset === 0 ? {} : { query: { offset } }) } as RouteInput<typeof CatalogRoutes.listSchedules>;
    return (await this.transport.call(CatalogRoutes.listSchedules, input, options)) as ListPage<Schedule>;
  }
}
