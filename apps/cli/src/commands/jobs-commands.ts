import type { Job, JobStatus } from '@crawl/sdk';
import { JOB_TYPE_HELP } from './job-types-help.ts';
import { chargesOf, progressOf } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { UsageError } from '../cli-io.ts';
import { formatDuration, formatTime } from '../output/format.ts';
import type { Output } from '../output/output.ts';
import { chargesLine } from '../output/target-outcome.ts';
import { targetsTable } from '../output/targets-table.ts';
import { fields, table } from '../output/table.ts';
import { followJob, statusColor } from '../progress/follow-job.ts';
import type { Action } from './action.ts';
import { collect, jobType, parseConfig, readTargets } from './job-input.ts';
import { jobEstimateCommand } from './job-estimate-command.ts';
import { jobDeliveriesCommands } from './destinations-commands.ts';
import { defaultProject } from './projects-commands.ts';

interface CreateOptions {
  project?: string;
  type: string;
  target?: string[];
  targetsFile?: string;
  list?: string;
  config?: string[];
  wait?: boolean;
  timeout?: string;
  maxCredits?: string;
  maxAge?: string;
}

/** `--list` or the targets given, never both. */
function targetSource(options: CreateOptions, resolvePath: (file: string) => string): { targets: string[] } | { targetListId: string } {
  if (options.list === undefined) return { targets: readTargets(options.target, options.targetsFile, resolvePath) };
  if (options.target !== undefined || options.targetsFile !== undefined) throw new UsageError('give --list or --target / --targets-file, not both');
  return { targetListId: options.list };
}

export function jobsCommands(program: Command, action: Action): void {
  const jobs = program.command('jobs').description('create, follow, list, cancel and retry crawl jobs');

  jobs
    .command('create')
    .description('create a crawl job (credits are reserved; it runs in the background)')
    .option('--project <id>', 'project to create it in (default: your oldest active project, created if you have none)')
    .requiredOption('--type <type>', JOB_TYPE_HELP)
    .option('--target <target>', "a target of the job's type (a keyword, ASIN, URL, node id, seller id or prefix: see --type); repeat for more", collect)
    .option('--targets-file <file>', 'one target per line (- for standard input)')
    .option('--list <id>', 'take the targets of a target list (crawl lists upload) instead of --target / --targets-file')
    .option('--config <key=value>', 'job config entry, e.g. lang=de-DE, pages=2, maxReviews=300, stars=5,4 or verifiedOnly=true; repeatable', collect)
    .option('--max-credits <n>', 'refuse the job (nothing reserved) if it would reserve more credits than this')
    .option('--max-age <age>', 'details and search jobs: answer targets fetched within this age (30m, 6h, 1d) from the shared page cache, at the cached price')
    .option('--wait', 'follow the job until it ends (progress bar on a terminal)')
    .option('--timeout <seconds>', 'with --wait: give up after this long')
    .action(
      action(async (ctx: CliContext, _args, options: CreateOptions) => {
        const client = ctx.client();
        const type = jobType(options.type);
        const source = targetSource(options, (file) => ctx.path(file));
        const parsed = parseConfig(options.config);
        const config = options.maxAge === undefined ? parsed : { ...parsed, maxAge: options.maxAge };
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const job = await client.jobs.create(projectId, {
          type,
          ...source,
          ...(config ? { config } : {}),
          ...(options.maxCredits !== undefined ? { maxCredits: integer('--max-credits', options.maxCredits) } : {}),
        });
        if (!options.wait) {
          ctx.output.result(
            job,
            () =>
              `Created job ${ctx.output.colors.bold(job.id)}: ${job.targets.length} ${type} target(s), ${job.creditsReserved} credits reserved, ${job.status}`,
          );
          return;
        }
        ctx.output.note(`Created job ${job.id}: ${job.targets.length} ${type} target(s), ${job.creditsReserved} credits reserved`);
        await finish(ctx, await followJob(client, ctx.output, job.id, timeoutOf(options.timeout)));
      }),
    );

  jobEstimateCommand(jobs, action);
  jobDeliveriesCommands(jobs, action);

  jobs
    .command('watch')
    .description('follow a job live: targets done and failed, with an ETA, until it ends')
    .argument('<id>', 'job id')
    .option('--timeout <seconds>', 'give up after this long')
    .action(
      action(async (ctx: CliContext, [id], options: { timeout?: string }) => {
        await finish(ctx, await followJob(ctx.client(), ctx.output, id as string, timeoutOf(options.timeout)));
      }),
    );

  jobs
    .command('list')
    .description("a project's jobs, newest first")
    .option('--project <id>', 'project (default: your oldest active project)')
    .option('--status <status>', 'only jobs in this status (queued, running, completed, failed, cancelled)')
    .option('--limit <n>', 'how many (default 20)', '20')
    .option('--offset <n>', 'skip this many', '0')
    .action(
      action(async (ctx: CliContext, _args, options: { project?: string; status?: string; limit: string; offset: string }) => {
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const page = await client.jobs.list(projectId, {
          limit: integer('--limit', options.limit),
          offset: integer('--offset', options.offset),
          ...(options.status ? { status: options.status as JobStatus } : {}),
        });
        ctx.output.result(page, () => {
          if (page.data.length === 0) return 'No jobs';
          const c = ctx.output.colors;
          const rows = page.data.map((job) => {
            const p = progressOf(job);
            const { unchargedTargets } = chargesOf(job);
            const notes = [p.failed ? `${p.failed} failed` : '', unchargedTargets ? `${unchargedTargets} uncharged` : ''].filter(Boolean);
            return [
              job.id,
              job.type,
              statusColor(c, job.status),
              `${p.done}/${p.total}${notes.length ? ` (${notes.join(', ')})` : ''}`,
              job.resultCount,
              formatTime(job.createdAt),
            ];
          });
          const shown = `${page.meta.offset + 1}-${page.meta.offset + page.data.length} of ${page.meta.total}`;
          return `${table(['ID', 'TYPE', 'STATUS', 'TARGETS', 'RESULTS', 'CREATED'], rows)}\n${c.dim(shown)}`;
        });
      }),
    );

  jobs
    .command('get')
    .description('a job with its targets')
    .argument('<id>', 'job id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const job = await ctx.client().jobs.get(id as string);
        ctx.output.result(job, () => describeJob(job, ctx.output));
      }),
    );

  jobs
    .command('cancel')
    .description('cancel a queued or running job (unprocessed targets are refunded)')
    .argument('<id>', 'job id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const job = await ctx.client().jobs.cancel(id as string);
        ctx.output.result(job, () => `Job ${job.id} ${job.status}`);
      }),
    );

  jobs
    .command('retry')
    .description('run a job again as a new job (same type, config and targets; credits reserved again)')
    .argument('<id>', 'job id')
    .option('--wait', 'follow the new job until it ends')
    .action(
      action(async (ctx: CliContext, [id], options: { wait?: boolean }) => {
        const client = ctx.client();
        const job = await client.jobs.retry(id as string);
        if (!options.wait) {
          ctx.output.result(job, () => `Created job ${ctx.output.colors.bold(job.id)} (retry of ${id}), ${job.status}`);
          return;
        }
        ctx.output.note(`Created job ${job.id} (retry of ${id})`);
        await finish(ctx, await followJob(client, ctx.output, job.id));
      }),
    );
}

/** Prints the ended job; a job that did not complete makes the command fail (exit code 1). */
async function finish(ctx: CliContext, job: Job): Promise<void> {
  const p = progressOf(job);
  const c = ctx.output.colors;
  ctx.output.result(job, () => {
    const took = job.startedAt && job.completedAt ? ` in ${formatDuration((Date.parse(job.completedAt) - Date.parse(job.startedAt)) / 1000)}` : '';
    const next = job.status === 'completed' ? `\n${c.dim(`Next: crawl results ${job.id}   or   crawl export ${job.id} --format csv -o results.csv`)}` : '';
    return `Job ${c.bold(job.id)} ${statusColor(c, job.status)}${took}: ${p.done} done, ${p.failed} failed of ${p.total} target(s), ${job.resultCount} result(s); ${chargesLine(job)}${next}`;
  });
  if (job.status !== 'completed') ctx.exitCode = 1;
}

function describeJob(job: Job, output: Output): string {
  const c = output.colors;
  const p = progressOf(job);
  const queue = job.queue;
  const summary = fields([
    ['id', job.id],
    ['project', job.projectId],
    ['type', job.type],
    ['status', statusColor(c, job.status)],
    ['targets', `${p.done} done, ${p.failed} failed, ${p.pending} pending of ${p.total}`],
    ['charged', chargesLine(job)],
    ['results', job.resultCount],
    ['credits', job.creditsReserved],
    ['max credits', job.maxCredits],
    [
      'queue',
      queue
        ? `position ${queue.position ?? '?'}, ${queue.targetsAhead ?? '?'} target(s) ahead, ETA ${typeof queue.etaSeconds === 'number' ? formatDuration(queue.etaSeconds) : 'unknown'}`
        : undefined,
    ],
    ['config', Object.keys(job.config).length ? JSON.stringify(job.config) : undefined],
    ['retry of', job.retryOf],
    ['created', formatTime(job.createdAt)],
    ['started', job.startedAt ? formatTime(job.startedAt) : undefined],
    ['ended', job.completedAt ? formatTime(job.completedAt) : undefined],
  ]);
  const targets = targetsTable(job, (status) => statusColor(c, status));
  return `${summary}\n\n${targets}`;
}

function timeoutOf(seconds: string | undefined): { timeoutMs?: number } {
  return seconds === undefined ? {} : { timeoutMs: integer('--timeout', seconds) * 1000 };
}

export function integer(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a whole number, got "${value}"`);
  return Number(value);
}
