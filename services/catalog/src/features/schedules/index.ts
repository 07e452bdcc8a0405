/** Schedules: cron rules that create a project's jobs through the user's path. */
export { DEFAULT_TIMEZONE, nextRunAfter, validateCron } from './cron-rules.ts';
export { ScheduleBudgetRepository } from './schedule-budget.ts';
export { ScheduleRepository } from './schedule-repository.ts';
export { scheduleRoutes } from './schedule-routes.ts';
export { ScheduleService, toScheduleView, type ScheduleDoc } from './schedule-service.ts';
