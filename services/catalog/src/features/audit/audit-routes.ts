import { CatalogInternalRoutes, CatalogRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import { toAuditView, type AuditLog } from './audit-service.ts';

/** The organization's audit events; other services record theirs (auth's logins) internally. */
export function auditRoutes(app: FastifyInstance, audit: AuditLog): void {
  routeFromSpec(app, CatalogRoutes.listAudit, async (request) => audit.list(callerOf(request).organizationId, request.query));
  routeFromSpec(app, CatalogInternalRoutes.recordAudit, async (request, reply) => {
    const doc = await audit.record({ ...request.body, requestId: request.body.requestId ?? request.id });
    return reply.code(201).send({ data: toAuditView(doc) });
  });
}
