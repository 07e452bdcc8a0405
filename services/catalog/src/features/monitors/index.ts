/**
 * Monitors: a project's scheduled checks of products or search results. Each run is an ordinary
 * job linked to its monitor; rules read the changes history reports for those jobs and fire
 * `monitor.triggered` events (stored, sent to webhooks through the outbox, on the job's stream).
 */
export { ConfirmationRepository } from './confirmation-repository.ts';
export { CooldownRepository } from './cooldown-repository.ts';
export { MonitorEventRepository } from './event-repository.ts';
export { MonitorRepository } from './monitor-repository.ts';
export { monitorRoutes } from './monitor-routes.ts';
export { Monitors, type MonitorParts, type MonitorTick } from './monitors.ts';
export { MonitorRunRepository } from './run-repository.ts';
export { MonitorTriggers, type MonitorTriggerParts } from './monitor-triggers.ts';
export { evaluateRules, ruleFires, type Firing } from './rule-evaluation.ts';
