import type { JobEstimate } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { formatDuration } from '../output/format.ts';
import { fields } from '../output/table.ts';
import type { Action } from './action.ts';
import { JOB_TYPE_HELP } from './job-types-help.ts';
import { collect, jobType, parseConfig, readTargets } from './job-input.ts';
import { integer } from './jobs-commands.ts';
import { defaultProject } from './projects-commands.ts';

interface EstimateOptions {
  project?: string;
  type: string;
  target?: string[];
  targetsFile?: string;
  config?: string[];
  maxCredits?: string;
}

/** `crawl jobs estimate`: the flags of `jobs create`; answers what the create would reserve, with nothing created. */
export function jobEstimateCommand(jobs: Command, action: Action): void {
  jobs
    .command('estimate')
    .description('what `jobs create` with the same flags would reserve, count and wait for (nothing is created or reserved)')
    .option('--project <id>', 'project (default: your oldest active project)')
    .requiredOption('--type <type>', JOB_TYPE_HELP)
    .option('--target <target>', "a target of the job's type; repeat for more", collect)
    .option('--targets-file <file>', 'one target per line (- for standard input)')
    .option('--config <key=value>', 'job config entry, as for jobs create; repeatable', collect)
    .option('--max-credits <n>', 'the most credits the job may reserve')
    .action(
      action(async (ctx: CliContext, _args, options: EstimateOptions) => {
        const client = ctx.client();
        const type = jobType(options.type);
        const targets = readTargets(options.target, options.targetsFile, (file) => ctx.path(file));
        const config = parseConfig(options.config);
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const estimate = await client.jobs.estimate(projectId, {
          type,
          targets,
          ...(config ? { config } : {}),
          ...(options.maxCredits !== undefined ? { maxCredits: integer('--max-credits', options.maxCredits) } : {}),
        });
        ctx.output.result(estimate, () => estimateText(estimate));
      }),
    );
}

function estimateText(e: JobEstimate): string {
  const q = e.quota;
  return fields([
    ['type', e.type],
    ['targets', e.targetCount],
    ['credits', `${e.billedPerPageFetched ? 'at most ' : ''}${e.credits} (${e.targetCount} × ${e.unitsPerTarget} unit(s) × ${e.creditsPerUnit})`],
    ['max credits', e.maxCredits === undefined ? undefined : `${e.maxCredits}${e.withinMaxCredits ? '' : ' — exceeded: the create would be refused'}`],
    ['balance', `${e.balance.available} available${e.balance.sufficient ? '' : ' — not enough'}`],
    ['jobs this month', `${q.used.jobsThisMonth} of ${q.limits.jobsPerMonth}${q.exceedsJobs ? ' — limit reached' : ''}`],
    ['targets this month', `${q.used.targetsThisMonth} of ${q.limits.targetsPerMonth}${q.exceedsTargets ? ' — this job would pass the limit' : ''}`],
    [
      'queue',
      `position ${e.queue.position}, at most ${e.queue.targetsAhead} target(s) ahead, ETA ${e.queue.etaSeconds === null ? 'unknown' : formatDuration(e.queue.etaSeconds)}`,
    ],
  ]);
}
