import { errors } from '@crawl/errors';

/**
 * Where a job's `config.destinationId` is looked up. The destinations feature builds on jobs
 * (it reads finished jobs), so jobs name what they need here and the composition supplies it.
 */
export interface DestinationLookup {
  /** The destination's project, or null when the organization has no destination of that id. */
  projectOf(organizationId: string, destinationId: string): Promise<string | null>;
}

/**
 * A named destination must be one of the job's project, so a typo is a 400 at create rather
 * than a failed delivery hours later. @param field where the id sits in the body, for the message.
 * @throws 400 naming the destination
 */
export async function checkDestination(
  lookup: DestinationLookup | undefined,
  at: { organizationId: string; projectId: string; config: { destinationId?: unknown } | undefined },
  field: string,
): Promise<void> {
  const destinationId = at.config?.destinationId;
  if (lookup === undefined || typeof destinationId !== 'string') return;
  const projectId = await lookup.projectOf(at.organizationId, destinationId);
  if (projectId === null) {
    throw errors.validation(`${field} ${JSON.stringify(destinationId)} is not a destination of this organization`);
  }
  if (projectId !== at.projectId) {
    throw errors.validation(
      `${field} ${JSON.stringify(destinationId)} belongs to another project (${projectId}); a job writes to a destination of its own project`,
    );
  }
}
