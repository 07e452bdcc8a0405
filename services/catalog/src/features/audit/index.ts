/** The audit log: who did what to which resource, per organization. */
export { AuditRepository } from './audit-repository.ts';
export { auditRoutes } from './audit-routes.ts';
export { AuditLog, type AuditEntry } from './audit-service.ts';
