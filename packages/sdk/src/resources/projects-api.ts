import { CatalogRoutes, type CreateProjectBody, type ListProjectsQuery, type Project, type UpdateProjectBody } from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import { eachItem, type ListPage } from '../paging.ts';

export class ProjectsApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** The organization's projects (the first page, where the server pages them; `iterate` walks them all). */
  async list(query: ListProjectsQuery = {}, options?: CallOptions): Promise<Project[]> {
    return (await this.page(query, 0, options)).data;
  }

  /** Every project, page by page where the server pages the list (`meta.total`), in one request where it does not. */
  iterate(query: ListProjectsQuery = {}, options?: CallOptions): AsyncGenerator<Project, void, undefined> {
    return eachItem((offset) => this.page(query, offset, options));
  }

  async create(body: CreateProjectBody, options?: CallOptions): Promise<Project> {
    return (await this.transport.call(CatalogRoutes.createProject, { body }, options)).data;
  }

  async update(id: string, body: UpdateProjectBody, options?: CallOptions): Promise<Project> {
    return (await this.transport.call(CatalogRoutes.updateProject, { params: { id }, body }, options)).data;
  }

  archive(id: string, options?: CallOptions): Promise<Project> {
    return this.update(id, { archived: true }, options);
  }

  unarchive(id: string, options?: CallOptions): Promise<Project> {
    return this.update(id, { archived: false }, options);
  }

  private async page(query: ListProjectsQuery, offset: number, options?: CallOptions): Promise<ListPage<Project>> {
    // The first request sends only the filter, which every server version accepts; `offset` only
    // goes out when an answer's `meta` said there is more.
    const paged = offset === 0 ? query : ({ ...query, offset } as ListProjectsQuery);
    return (await this.transport.call(CatalogRoutes.listProjects, { query: paged }, options)) as ListPage<Project>;
  }
}
