import { CATALOG_LIMITS, type JobType } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { PreparedJob } from './job-input.ts';

/** Where a body naming `targetListId` finds its targets, already checked and de-duplicated. */
export interface TargetListSource {
  targetsFor(organizationId: string, listId: string, expected: { projectId: string; type: JobType }, field: string): Promise<PreparedJob['targets']>;
}

/**
 * The targets one job (or one monitor run) takes from a list, by the rules every taker shares:
 * the list is the organization's, of the project and of the type, and within one job's limit
 * (larger lists wait for chunked jobs, ADR 0021). `field` names the id's place in the body.
 * @throws 400
 */
export async function targetsFromList(
  source: TargetListSource | undefined,
  at: { organizationId: string; projectId: string; type: JobType; listId: string },
  field: string,
  maxTargets: number = CATALOG_LIMITS.maxTargetsPerJob,
): Promise<PreparedJob['targets']> {
  if (!source) throw errors.validation(`${field}: target lists are not available here`);
  const targets = await source.targetsFor(at.organizationId, at.listId, { projectId: at.projectId, type: at.type }, field);
  if (targets.length > maxTargets) {
    throw errors.validation(
      `${field}: the list holds ${targets.length} targets; a job takes at most ${maxTargets} (split the list, see docs/catalog.md, Target lists)`,
    );
  }
  return targets;
}
