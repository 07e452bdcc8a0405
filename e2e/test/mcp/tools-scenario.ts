import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { callError, callJson, TOOL_NAMES } from './tool-calls.ts';

/**
 * What both transports must do alike, through the SDK's own client: list the tools with their
 * JSON Schemas, estimate, create a job, follow it, page its results, export it, and answer a bad
 * target with the API's own message as a tool error.
 */
export async function toolsScenario(client: Client, projectId: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
  const create = tools.find((tool) => tool.name === 'create_job');
  // The route's schema, property for property: the job types are the contracts' enum.
  expect(create?.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['type']) });
  expect(create?.inputSchema.properties).toHaveProperty('targets');
  expect(JSON.stringify(create?.inputSchema.properties?.type)).toContain('autocomplete');

  const estimate = await callJson(client, 'estimate_job', { projectId, type: 'search', targets: ['usb-c cable', 'desk lamp'] });
  expect(estimate).toMatchObject({ credits: 10 });

  const job = await callJson(client, 'create_job', { projectId, type: 'search', targets: ['usb-c cable', 'desk lamp'] });
  expect(job).toMatchObject({ type: 'search', status: 'queued' });
  await expect.poll(async () => (await callJson(client, 'job_status', { jobId: job.id })).status, { timeout: 30_000, interval: 250 }).toBe('completed');

  const first = await callJson(client, 'job_results', { jobId: job.id, pageSize: 2 });
  expect(first.items).toHaveLength(2);
  expect(first.items[0]).toHaveProperty('asin');
  const cursor = first.pagination.nextCursor;
  expect(cursor).toEqual(expect.any(String));
  const second = await callJson(client, 'job_results', { jobId: job.id, pageSize: 2, cursor });
  expect(second.items[0].asin).not.toBe(first.items[0].asin);

  const csv = await callJson(client, 'export_job', { jobId: job.id, format: 'csv', maxBytes: 200 });
  expect(csv).toMatchObject({ format: 'csv', truncated: true, bytes: 200 });
  expect(csv.text.split('\n')[0]).toContain('asin');
  expect(csv.downloadUrl).toMatch(new RegExp(`/jobs/${job.id}/export\\?format=csv$`));

  // The API refuses the target (400); the tool says so in the API's words, and the server lives on.
  const refused = await callError(client, 'create_job', { projectId, type: 'details', targets: ['not a product'] });
  expect(refused).toMatch(/^400 VALIDATION_ERROR: /);
  // Arguments that break the tool's schema never reach the API.
  const invalid = await callError(client, 'create_job', { projectId, type: 'nonsense', targets: [] });
  expect(invalid).toMatch(/^Invalid arguments for create_job: /);
  expect(await callJson(client, 'job_status', { jobId: job.id })).toMatchObject({ id: job.id });
}
