import { BILLED_PER_PAGE_FETCHED, CREDITS_PER_TARGET, type CreateJobBody, type Identity, type JobEstimate } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { creditsToReserve, targetsFromList, type JobInput, type TargetListSource } from '../features/jobs/index.ts';
import type { ProjectService } from '../features/projects/index.ts';
import type { QueuePositions } from '../features/queue-position/index.ts';
import type { Actor } from '../features/shared/actor.ts';
import type { CatalogResources } from '../features/shared/resources.ts';

/** What an estimate reads: the create's checks, billing's month, the queue. */
export interface JobEstimateParts {
  projects: ProjectService;
  input: JobInput;
  positions: QueuePositions;
  /** A body naming `targetListId` is counted by the list's targets (the target-lists feature). */
  targetLists?: TargetListSource;
}

/**
 * `POST /projects/:projectId/jobs/estimate`: the create's checks and arithmetic with nothing
 * reserved, stored or enqueued (docs/catalog.md, Estimates and budgets). The quota and balance
 * are billing's figures now; a create a moment later may find them moved.
 */
export class JobEstimates {
  readonly #resources: CatalogResources;
  readonly #parts: JobEstimateParts;

  constructor(resources: CatalogResources, parts: JobEstimateParts) {
    this.#resources = resources;
    this.#parts = parts;
  }

  async estimate(actor: Actor, projectId: string, body: CreateJobBody, context: { requestId?: string; identity?: Identity | null } = {}): Promise<JobEstimate> {
    // The create's order: the project (404 for another organization's), then the body's rules (its 400s).
    const project = await this.#parts.projects.getOwned(actor.organizationId, projectId);
    if (project.archived) throw errors.conflict('Project is archived: unarchive it before creating jobs');
    const prepared = this.#parts.input.prepare(body);
    if (body.targetListId !== undefined) {
      const at = { organizationId: actor.organizationId, projectId, type: body.type, listId: body.targetListId };
      prepared.targets = await targetsFromList(this.#parts.targetLists, at, 'targetListId');
    }
    const targetCount = prepared.targets.length;
    const credits = creditsToReserve(prepared);
    const [usage, queue] = await Promise.all([
      this.#resources.billing().usage(actor.organizationId, { requestId: context.requestId, identity: context.identity ?? null }),
      this.#parts.positions.forNewJob(actor.organizationId, targetCount),
    ]);
    return {
      type: prepared.type,
      targetCount,
      unitsPerTarget: prepared.unitsPerTarget,
      creditsPerUnit: CREDITS_PER_TARGET[prepared.type],
      credits,
      billedPerPageFetched: BILLED_PER_PAGE_FETCHED.has(prepared.type),
      ...(body.maxCredits !== undefined ? { maxCredits: body.maxCredits } : {}),
      withinMaxCredits: body.maxCredits === undefined || credits <= body.maxCredits,
      balance: { available: usage.credits.available, reserved: usage.credits.reserved, sufficient: usage.credits.available >= credits },
      quota: {
        limits: usage.limits,
        used: usage.used,
        remaining: usage.remaining,
        // The reservation's own checks (billing's jobQuotaProblem).
        exceedsJobs: usage.used.jobsThisMonth + 1 > usage.limits.jobsPerMonth,
        exceedsTargets: usage.used.targetsThisMonth + targetCount > usage.limits.targetsPerMonth,
      },
      queue,
    };
  }
}
