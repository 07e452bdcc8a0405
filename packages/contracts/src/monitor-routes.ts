import { Type } from '@sinclair/typebox';
import { Job, ProjectIdParams } from './catalog.ts';
import { DataEnvelope, IdParams, ListEnvelope } from './common.ts';
import { ErrorEnvelope } from './errors.ts';
import { CreateMonitorBody, ListMonitorEventsQuery, ListMonitorsQuery, Monitor, MonitorEvent, UpdateMonitorBody } from './monitors.ts';
import { defineRoutes } from './route-spec.ts';

const E = ErrorEnvelope;
const authErrors = { 401: E } as const;

/** Public monitor routes, owned by catalog (see docs/monitors.md). */
export const MonitorRoutes = defineRoutes({
  createMonitor: {
    method: 'POST',
    url: '/projects/:projectId/monitors',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Create a monitor: scheduled checks of products or search results with rules that fire change events',
      description:
        'Targets, domain and delivery location are checked as a job’s are; each rule’s operation must fit its field and take a value where it needs one. An interval monitor runs first at the next scheduler tick, a cron monitor at its next time. 400 beyond the limits (docs/monitors.md), 409 in an archived project.',
      tags: ['monitors'],
      params: ProjectIdParams,
      body: CreateMonitorBody,
      response: { 201: DataEnvelope(Monitor), 400: E, ...authErrors, 404: E, 409: E },
    },
  },
  listMonitors: {
    method: 'GET',
    url: '/projects/:projectId/monitors',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "List a project's monitors, newest first",
      tags: ['monitors'],
      params: ProjectIdParams,
      querystring: ListMonitorsQuery,
      response: { 200: ListEnvelope(Monitor), 400: E, ...authErrors, 404: E },
    },
  },
  getMonitor: {
    method: 'GET',
    url: '/monitors/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'A monitor with its status, next run, last error and credits this month',
      tags: ['monitors'],
      params: IdParams,
      response: { 200: DataEnvelope(Monitor), ...authErrors, 404: E },
    },
  },
  updateMonitor: {
    method: 'PATCH',
    url: '/monitors/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Change a monitor (name, targets, schedule, watched fields, rules, cooldown, budget, enabled)',
      tags: ['monitors'],
      params: IdParams,
      body: UpdateMonitorBody,
      response: { 200: DataEnvelope(Monitor), 400: E, ...authErrors, 404: E },
    },
  },
  pauseMonitor: {
    method: 'POST',
    url: '/monitors/:id/pause',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Pause a monitor: no scheduled runs until it is resumed',
      tags: ['monitors'],
      params: IdParams,
      response: { 200: DataEnvelope(Monitor), ...authErrors, 404: E },
    },
  },
  resumeMonitor: {
    method: 'POST',
    url: '/monitors/:id/resume',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Resume a paused monitor (also one paused for its budget); its next run counts from now',
      tags: ['monitors'],
      params: IdParams,
      response: { 200: DataEnvelope(Monitor), ...authErrors, 404: E },
    },
  },
  deleteMonitor: {
    method: 'DELETE',
    url: '/monitors/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Delete a monitor and its events (its jobs stay)',
      tags: ['monitors'],
      params: IdParams,
      response: { 204: Type.Null(), ...authErrors, 404: E },
    },
  },
  runMonitor: {
    method: 'POST',
    url: '/monitors/:id/run',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Run a monitor once now (also while paused); answers with the job',
      description:
        'Creates the run’s job as a scheduled run does: credits reserved, monthly quotas counted (402, 403), the budget checked (409 when the run would pass `maxCreditsPerMonth`; the monitor then pauses). The scheduled runs keep their times.',
      tags: ['monitors'],
      params: IdParams,
      response: { 201: DataEnvelope(Job), ...authErrors, 402: E, 403: E, 404: E, 409: E },
    },
  },
  listMonitorEvents: {
    method: 'GET',
    url: '/monitors/:id/events',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "The monitor's `monitor.triggered` events, newest first",
      tags: ['monitors'],
      params: IdParams,
      querystring: ListMonitorEventsQuery,
      response: { 200: ListEnvelope(MonitorEvent), 400: E, ...authErrors, 404: E },
    },
  },
});
