import { ProjectIdParams } from '@crawl/contracts';
import { Type } from '@sinclair/typebox';

/** Every project-scoped tool takes the route's `projectId`, optional: the server picks one when it is left out. */
export const OptionalProjectId = Type.Optional({
  ...ProjectIdParams.properties.projectId,
  description: "The project to work in; default: the server's project, else the caller's first project (see list_projects).",
});

export const JobId = Type.String({ minLength: 1, maxLength: 64, description: 'A job id, as create_job, search_products or run_monitor answer.' });

/** How long a tool that runs a job waits for it before answering with the job as it stands. */
export const WaitSeconds = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 600, default: 120, description: 'How long to wait for the job to finish before answering with its status.' }),
);
