import { CATALOG_LIMITS, MONITOR_LIMITS, type AuditMetadata, type CreateMonitorBody, type UpdateMonitorBody } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { Clock } from '@crawl/clock';
import { newId } from '@crawl/storage';
import type { AuditLog } from '../audit/index.ts';
import { targetsFromList, type TargetListSource } from '../jobs/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../shared/actor.ts';
import type { CatalogResources } from '../shared/resources.ts';
import type { ConfirmationRepository } from './confirmation-repository.ts';
import type { CooldownRepository } from './cooldown-repository.ts';
import type { MonitorEventRepository } from './event-repository.ts';
import type { MonitorDefinitions } from './monitor-definition.ts';
import { definitionOf, monthOf, type MonitorDoc } from './monitor-model.ts';
import type { MonitorChanges, MonitorRepository } from './monitor-repository.ts';
import { firstRunAt, runAfterChange } from './monitor-timing.ts';
import type { MonitorRunRepository } from './run-repository.ts';

export interface MonitorServiceParts {
  monitors: MonitorRepository;
  events: MonitorEventRepository;
  cooldowns: CooldownRepository;
  confirmations: ConfirmationRepository;
  runs: MonitorRunRepository;
  definitions: MonitorDefinitions;
  projects: ProjectService;
  audit: AuditLog;
  /** Where `targetListId` finds its targets (the target-lists feature). */
  targetLists?: TargetListSource | undefined;
}

type Page = { limit?: number | undefined; offset?: number | undefined };

const pageOf = (query: Page) => ({
  limit: Math.min(query.limit ?? CATALOG_LIMITS.listDefaultLimit, CATALOG_LIMITS.listMaxLimit),
  offset: query.offset ?? 0,
});

/** A project's monitors (organization-scoped): create, list, read, change, pause, resume, delete, and their events. */
export class MonitorService {
  readonly #parts: MonitorServiceParts;
  readonly #clock: Clock;

  constructor(resources: CatalogResources, parts: MonitorServiceParts) {
    this.#parts = parts;
    this.#clock = resources.clock;
  }

  /**
   * The targets a body gives, or those of the list it names (read now, as a job reads its list,
   * by the same rules: exactly one of them, a list of the project and type within one job's
   * limit); undefined when it gives neither. @throws 400
   */
  async #targetsOf(
    organizationId: string,
    projectId: string,
    type: MonitorDoc['type'],
    body: { targets?: string[] | undefined; targetListId?: string | undefined },
  ): Promise<string[] | undefined> {
    if (body.targetListId === undefined) return body.targets;
    if (body.targets !== undefined) throw errors.validation('Give either targets or targetListId, not both');
    const at = { organizationId, projectId, type, listId: body.targetListId };
    const listed = await targetsFromList(this.#parts.targetLists, at, 'targetListId', MONITOR_LIMITS.maxTargets);
    return listed.map((target) => target.value);
  }

  /** The service's clock (views show this month's credits with it). */
  now(): Date {
    return this.#clock.now();
  }

  async create(actor: Actor, projectId: string, body: CreateMonitorBody, requestId?: string): Promise<MonitorDoc> {
    const { monitors, definitions, projects } = this.#parts;
    const project = await projects.getOwned(actor.organizationId, projectId);
    if (project.archived) throw errors.conflict('Project is archived: unarchive it before adding monitors');
    const now = this.#clock.now();
    const targets = await this.#targetsOf(actor.organizationId, projectId, body.type, body);
    if (!targets) throw errors.validation('targets or targetListId is required');
    const definition = definitions.create({ ...body, targets }, now);
    if ((await monitors.countForProject(actor.organizationId, projectId)) >= MONITOR_LIMITS.monitorsPerProject) {
      throw errors.validation(`A project has at most ${MONITOR_LIMITS.monitorsPerProject} monitors; delete one first`);
    }
    const active = body.enabled ?? true;
    const at = now.toISOString();
    const doc: MonitorDoc = {
      _id: newId('mon_'),
      organizationId: actor.organizationId,
      projectId,
      ...definitionOf(definition),
      status: active ? 'active' : 'paused',
      pausedReason: active ? null : 'user',
      pausedAt: active ? null : at,
      resumesAt: null,
      nextRunAt: active ? (firstRunAt(definition, now)?.toISOString() ?? null) : null,
      lastRunAt: null,
      lastJobId: null,
      lastError: null,
      lastTriggeredAt: null,
      usage: { month: monthOf(now), credits: 0 },
      runCount: 0,
      createdBy: actor.userId,
      createdAt: at,
      updatedAt: at,
    };
    const created = await monitors.insert(doc);
    await this.#audit(actor, 'monitor.create', doc._id, requestId, {
      projectId,
      type: doc.type,
      targetCount: doc.targets.length,
      every: doc.every,
      cron: doc.cron,
      rules: doc.rules.length,
      enabled: active,
    });
    return created;
  }

  async list(organizationId: string, projectId: string, query: Page) {
    await this.#parts.projects.getOwned(organizationId, projectId);
    const page = pageOf(query);
    const { monitors, total } = await this.#parts.monitors.listPage({ organizationId, projectId }, page);
    return { monitors, meta: { total, ...page } };
  }

  async getOwned(organizationId: string, id: string): Promise<MonitorDoc> {
    const monitor = await this.#parts.monitors.findOwned(organizationId, id);
    if (!monitor) throw errors.notFound('Monitor');
    return monitor;
  }

  async update(actor: Actor, id: string, patch: UpdateMonitorBody, requestId?: string): Promise<MonitorDoc> {
    const current = await this.getOwned(actor.organizationId, id);
    const now = this.#clock.now();
    const { enabled, targetListId: _listId, ...definitionPatch } = patch;
    const targets = await this.#targetsOf(actor.organizationId, current.projectId, current.type, patch);
    if (targets) definitionPatch.targets = targets;
    const definition = Object.keys(definitionPatch).length > 0 ? this.#parts.definitions.update(current, definitionPatch, now) : current;
    // The whole definition, checked and normalized, replaces the stored one (nothing else of the body is written).
    const changes: MonitorChanges = { ...(definition === current ? {} : definitionOf(definition)), updatedAt: now.toISOString() };
    const rescheduled = patch.every !== undefined || patch.cron !== undefined || patch.timezone !== undefined;
    if (enabled === false && current.status === 'active') Object.assign(changes, this.#pausing(now));
    else if (enabled === true && current.status === 'paused') Object.assign(changes, this.#resuming(definition, now));
    else if (rescheduled && current.status === 'active') changes.nextRunAt = runAfterChange(definition, now)?.toISOString() ?? null;
    const updated = await this.#parts.monitors.update(actor.organizationId, id, changes);
    if (!updated) throw errors.notFound('Monitor');
    await this.#audit(actor, 'monitor.update', id, requestId, { changes: Object.keys(patch), status: updated.status });
    return updated;
  }

  /** No scheduled runs until resumed; a budget pause becomes the user's (it no longer ends by itself). */
  async pause(actor: Actor, id: string, requestId?: string): Promise<MonitorDoc> {
    const current = await this.getOwned(actor.organizationId, id);
    if (current.status === 'paused' && current.pausedReason === 'user') return current;
    const updated = await this.#parts.monitors.update(actor.organizationId, id, {
      ...this.#pausing(this.#clock.now()),
      updatedAt: this.#clock.now().toISOString(),
    });
    if (!updated) throw errors.notFound('Monitor');
    await this.#audit(actor, 'monitor.pause', id, requestId, { reason: 'user', previousReason: current.pausedReason });
    return updated;
  }

  /** Runs again: an interval monitor at the next tick, a cron monitor at its next time. */
  async resume(actor: Actor, id: string, requestId?: string): Promise<MonitorDoc> {
    const current = await this.getOwned(actor.organizationId, id);
    if (current.status === 'active') return current;
    const now = this.#clock.now();
    const updated = await this.#parts.monitors.update(actor.organizationId, id, { ...this.#resuming(current, now), updatedAt: now.toISOString() });
    if (!updated) throw errors.notFound('Monitor');
    await this.#audit(actor, 'monitor.resume', id, requestId, { previousReason: current.pausedReason });
    return updated;
  }

  /** The monitor, its events, cooldowns, pending confirmations and run records; its jobs stay. */
  async remove(actor: Actor, id: string, requestId?: string): Promise<void> {
    const { monitors, events, cooldowns, confirmations, runs } = this.#parts;
    if (!(await monitors.remove(actor.organizationId, id))) throw errors.notFound('Monitor');
    await Promise.all([
      events.removeForMonitor(actor.organizationId, id),
      cooldowns.removeForMonitor(id),
      confirmations.removeForMonitor(id),
      runs.removeForMonitor(id),
    ]);
    await this.#audit(actor, 'monitor.delete', id, requestId, {});
  }

  async events(organizationId: string, id: string, query: Page) {
    await this.getOwned(organizationId, id);
    const page = pageOf(query);
    const { events, total } = await this.#parts.events.listPage({ organizationId, monitorId: id }, page);
    return { events, meta: { total, ...page } };
  }

  #pausing(now: Date): Pick<MonitorChanges, 'status' | 'pausedReason' | 'pausedAt' | 'resumesAt' | 'nextRunAt'> {
    return { status: 'paused', pausedReason: 'user', pausedAt: now.toISOString(), resumesAt: null, nextRunAt: null };
  }

  #resuming(
    timing: Pick<MonitorDoc, 'every' | 'cron' | 'timezone'>,
    now: Date,
  ): Pick<MonitorChanges, 'status' | 'pausedReason' | 'pausedAt' | 'resumesAt' | 'nextRunAt'> {
    return { status: 'active', pausedReason: null, pausedAt: null, resumesAt: null, nextRunAt: firstRunAt(timing, now)?.toISOString() ?? null };
  }

  async #audit(actor: Actor, action: string, id: string, requestId: string | undefined, metadata: AuditMetadata): Promise<void> {
    await this.#parts.audit.recordQuietly({
      organizationId: actor.organizationId,
      actorUserId: actor.userId,
      action,
      resourceType: 'monitor',
      resourceId: id,
      requestId,
      metadata,
    });
  }
}
