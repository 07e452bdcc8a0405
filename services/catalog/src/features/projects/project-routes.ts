import { CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import { toProjectView, type ProjectService } from './project-service.ts';

/** /projects: list, create, rename or (un)archive. */
export function projectRoutes(app: FastifyInstance, projects: ProjectService): void {
  routeFromSpec(app, CatalogRoutes.listProjects, async (request) => {
    const { projects: page, meta } = await projects.list(callerOf(request).organizationId, request.query);
    return { data: page.map(toProjectView), meta };
  });
  routeFromSpec(app, CatalogRoutes.createProject, async (request, reply) => {
    const project = await projects.create(callerOf(request), request.body.name, request.id);
    return reply.code(201).send({ data: toProjectView(project) });
  });
  routeFromSpec(app, CatalogRoutes.updateProject, async (request) => {
    const project = await projects.update(callerOf(request), request.params.id, request.body, request.id);
    return { data: toProjectView(project) };
  });
}
