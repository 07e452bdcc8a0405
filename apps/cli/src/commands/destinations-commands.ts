import type { CreateDestinationBody, Destination, DestinationDelivery } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { UsageError } from '../cli-io.ts';
import { formatTime } from '../output/format.ts';
import { fields, table } from '../output/table.ts';
import type { Action } from './action.ts';
import { defaultProject } from './projects-commands.ts';

const FORMATS = ['ndjson', 'csv', 'json'] as const;

interface CreateOptions {
  project?: string;
  bucket: string;
  region: string;
  prefix?: string;
  endpoint?: string;
  name?: string;
  format?: string;
  gzip: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export function destinationsCommands(program: Command, action: Action): void {
  const destinations = program.command('destinations').description("S3-compatible buckets a project's finished jobs are written to");

  destinations
    .command('create')
    .description('add a bucket (a test object is written first; the store says why when it cannot be)')
    .option('--project <id>', 'project (default: your oldest active project)')
    .requiredOption('--bucket <name>', 'bucket name')
    .requiredOption('--region <region>', 'signing region (auto for R2)')
    .option('--prefix <prefix>', 'key prefix; objects land under <prefix>/<jobId>/')
    .option('--endpoint <url>', 'an S3-compatible endpoint (R2, MinIO, GCS interoperability); AWS S3 when absent')
    .option('--name <text>', 'a label for people')
    .option('--format <format>', 'ndjson (default), csv or json')
    .option('--no-gzip', 'write parts uncompressed')
    .option('--access-key-id <id>', 'default: AWS_ACCESS_KEY_ID')
    .option('--secret-access-key <key>', 'default: AWS_SECRET_ACCESS_KEY (the variable keeps it out of your shell history)')
    .action(
      action(async (ctx: CliContext, _args, options: CreateOptions) => {
        const body = createBody(options, ctx.io.env);
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const created = await client.destinations.create(projectId, body);
        ctx.output.result(created, () => `Created destination ${created.id}: ${where(created)} (test object written)`);
      }),
    );

  destinations
    .command('list')
    .description("a project's destinations")
    .option('--project <id>', 'project (default: your oldest active project)')
    .action(
      action(async (ctx: CliContext, _args, options: { project?: string }) => {
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const page = await client.destinations.list(projectId, { limit: 100 });
        ctx.output.result(page.data, () =>
          page.data.length === 0
            ? 'No destinations'
            : table(
                ['ID', 'NAME', 'WHERE', 'FORMAT', 'LAST TEST'],
                page.data.map((d) => [d.id, d.name || '-', where(d), formatOf(d), lastTest(d)]),
              ),
        );
      }),
    );

  destinations
    .command('get')
    .description('one destination (its credentials are never shown)')
    .argument('<id>', 'destination id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const d = await ctx.client().destinations.get(id as string);
        ctx.output.result(d, () =>
          fields([
            ['ID', d.id],
            ['Name', d.name || '-'],
            ['Where', where(d)],
            ['Region', d.region],
            ['Format', formatOf(d)],
            ['Last test', lastTest(d)],
            ['Created', formatTime(d.createdAt)],
          ]),
        );
      }),
    );

  destinations
    .command('delete')
    .description('delete a destination (objects already written stay; jobs can no longer name it)')
    .argument('<id>', 'destination id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        await ctx.client().destinations.delete(id as string);
        ctx.output.result({ deleted: id }, () => `Deleted destination ${id}`);
      }),
    );

  destinations
    .command('test')
    .description('write a test object now')
    .argument('<id>', 'destination id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const result = await ctx.client().destinations.test(id as string);
        ctx.output.result(result, () => (result.ok ? `Wrote ${result.key} in ${result.latencyMs} ms` : `Could not write ${result.key}: ${result.error}`));
        if (!result.ok) ctx.exitCode = 1;
      }),
    );
}

/** `crawl jobs deliveries ID` and `crawl jobs replay-delivery ID DELIVERY`: a job's writes to its destination. */
export function jobDeliveriesCommands(jobs: Command, action: Action): void {
  jobs
    .command('deliveries')
    .description("a job's deliveries to its destination, with every attempt and the store's reason when one failed")
    .argument('<id>', 'job id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const list = await ctx.client().jobs.deliveries(id as string);
        ctx.output.result(list, () =>
          list.length === 0 ? 'No deliveries (the job names no destination, or has not ended)' : list.map(deliveryText).join('\n\n'),
        );
      }),
    );

  jobs
    .command('replay-delivery')
    .description("write the job's results to its destination again, now")
    .argument('<id>', 'job id')
    .argument('<deliveryId>', 'delivery id')
    .action(
      action(async (ctx: CliContext, [id, deliveryId]) => {
        const delivery = await ctx.client().jobs.replayDelivery(id as string, deliveryId as string);
        ctx.output.result(delivery, () => `Replaying delivery ${delivery.id} (${delivery.status})`);
      }),
    );
}

function createBody(options: CreateOptions, env: NodeJS.ProcessEnv): CreateDestinationBody {
  const accessKeyId = options.accessKeyId ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = options.secretAccessKey ?? env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new UsageError('credentials are needed: --access-key-id and --secret-access-key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const format = options.format ?? 'ndjson';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format is ${FORMATS.join(', ')}, got "${format}"`);
  return {
    type: 's3',
    bucket: options.bucket,
    region: options.region,
    accessKeyId,
    secretAccessKey,
    format: format as (typeof FORMATS)[number],
    gzip: options.gzip,
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
  };
}

function where(d: Destination): string {
  return `s3://${d.bucket}/${d.prefix === '' ? '' : `${d.prefix}/`}${d.endpoint ? ` at ${d.endpoint}` : ''}`;
}

function formatOf(d: Destination): string {
  return d.gzip ? `${d.format}.gz` : d.format;
}

function lastTest(d: Destination): string {
  if (d.lastTestAt === null) return '-';
  return d.lastTestError === null ? `ok ${formatTime(d.lastTestAt)}` : `failed ${formatTime(d.lastTestAt)}: ${d.lastTestError}`;
}

function deliveryText(d: DestinationDelivery): string {
  const head = `${d.id} to ${d.destinationId}: ${d.status}, ${d.attemptCount} attempt(s)${d.rows !== null ? `, ${d.rows} rows` : ''}`;
  const lines = [head];
  if (d.manifestKey) lines.push(`  manifest ${d.manifestKey}`);
  if (d.status !== 'delivered' && d.nextAttemptAt) lines.push(`  next attempt ${formatTime(d.nextAttemptAt)}`);
  for (const a of d.attempts)
    lines.push(`  ${a.attempt}. ${formatTime(a.at)} ${a.ok ? 'ok' : `failed: ${a.error}`}${a.replay ? ' (replay)' : ''} ${a.latencyMs} ms`);
  return lines.join('\n');
}
