import { CreateMonitorBody, ListMonitorsQuery } from '@crawl/contracts';
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool.ts';
import { OptionalProjectId } from '../tool-inputs.ts';

export const listMonitors = defineTool({
  name: 'list_monitors',
  title: 'List monitors',
  description: "A project's monitors (scheduled checks of products or search results with rules), newest first.",
  input: Type.Object({ projectId: OptionalProjectId, ...ListMonitorsQuery.properties }, { additionalProperties: false }),
  readOnly: true,
  run: async ({ projectId, ...query }, { client, projectId: projectOf, signal }) => client.monitors.list(await projectOf(projectId), query, { signal }),
});

export const createMonitor = defineTool({
  name: 'create_monitor',
  title: 'Create a monitor',
  description: 'A monitor: products or keywords checked on a schedule, whose rules fire events when a tracked value changes (docs/monitors.md).',
  input: Type.Object({ projectId: OptionalProjectId, ...CreateMonitorBody.properties }, { additionalProperties: false }),
  readOnly: false,
  run: async ({ projectId, ...body }, { client, projectId: projectOf, signal }) => client.monitors.create(await projectOf(projectId), body, { signal }),
});

export const runMonitor = defineTool({
  name: 'run_monitor',
  title: 'Run a monitor now',
  description: "Runs a monitor once now and answers with the run's job, queued (follow it with job_status).",
  input: Type.Object({ monitorId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  readOnly: false,
  run: ({ monitorId }, { client, signal }) => client.monitors.run(monitorId, { signal }),
});
