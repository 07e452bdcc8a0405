/** Projects: an organization's folders for jobs, schedules and webhooks. */
export { ProjectRepository } from './project-repository.ts';
export { projectRoutes } from './project-routes.ts';
export { ProjectService, toProjectView, type ProjectDoc } from './project-service.ts';
