import type { Schedule, UpdateScheduleBody } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { JOB_TYPE_HELP } from './job-types-help.ts';
import { UsageError } from '../cli-io.ts';
import { formatTime } from '../output/format.ts';
import { table } from '../output/table.ts';
import type { Action } from './action.ts';
import { collect, jobType, parseConfig, readTargets } from './job-input.ts';
import { defaultProject } from './projects-commands.ts';

interface CreateOptions {
  project?: string;
  cron: string;
  timezone?: string;
  type: string;
  target?: string[];
  targetsFile?: string;
  config?: string[];
  disabled?: boolean;
}

export function schedulesCommands(program: Command, action: Action): void {
  const schedules = program.command('schedules').description('cron schedules that create jobs');

  schedules
    .command('list')
    .description("a project's schedules")
    .option('--project <id>', 'project (default: your oldest active project)')
    .action(
      action(async (ctx: CliContext, _args, options: { project?: string }) => {
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const list = await client.schedules.list(projectId);
        ctx.output.result(list, () =>
          list.length === 0
            ? 'No schedules'
            : table(
                ['ID', 'CRON', 'TIMEZONE', 'TYPE', 'TARGETS', 'ENABLED', 'NEXT RUN', 'LAST JOB'],
                list.map((s) => [
                  s.id,
                  s.cron,
                  s.timezone,
                  s.crawlConfig.type,
                  s.crawlConfig.targetListId ? `list ${s.crawlConfig.targetListId}` : (s.crawlConfig.targets?.length ?? 0),
                  s.enabled ? 'yes' : 'no',
                  formatTime(s.nextRunAt),
                  s.lastJobId ?? '-',
                ]),
              ),
        );
      }),
    );

  schedules
    .command('create')
    .description('create a schedule (it enters the queue like a manual job when it fires)')
    .option('--project <id>', 'project (default: your oldest active project)')
    .requiredOption('--cron <expression>', 'cron expression, 5 or 6 fields, e.g. "0 6 * * *"')
    .option('--timezone <zone>', 'IANA time zone of the expression (default UTC)')
    .requiredOption('--type <type>', JOB_TYPE_HELP)
    .option('--target <target>', 'a keyword, ASIN or product URL; repeat for more', collect)
    .option('--targets-file <file>', 'one target per line')
    .option('--config <key=value>', 'job config entry; repeatable', collect)
    .option('--disabled', 'create it disabled')
    .action(
      action(async (ctx: CliContext, _args, options: CreateOptions) => {
        const client = ctx.client();
        const config = parseConfig(options.config);
        const crawlConfig = {
          type: jobType(options.type),
          targets: readTargets(options.target, options.targetsFile, (f) => ctx.path(f)),
          ...(config ? { config } : {}),
        };
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const schedule = await client.schedules.create(projectId, {
          cron: options.cron,
          crawlConfig,
          ...(options.timezone ? { timezone: options.timezone } : {}),
          ...(options.disabled ? { enabled: false } : {}),
        });
        ctx.output.result(
          schedule,
          () => `Created schedule ${schedule.id} (${schedule.cron} ${schedule.timezone}); next run ${formatTime(schedule.nextRunAt)}`,
        );
      }),
    );

  const update = async (ctx: CliContext, id: string, body: UpdateScheduleBody) => {
    const schedule: Schedule = await ctx.client().schedules.update(id, body);
    ctx.output.result(
      schedule,
      () =>
        `Schedule ${schedule.id}: ${schedule.cron} ${schedule.timezone}, ${schedule.enabled ? 'enabled' : 'disabled'}, next run ${formatTime(schedule.nextRunAt)}`,
    );
  };

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    schedules
      .command(verb)
      .description(`${verb} a schedule`)
      .argument('<id>', 'schedule id')
      .action(action(async (ctx: CliContext, [id]) => update(ctx, id as string, { enabled })));
  }

  schedules
    .command('update')
    .description("change a schedule's cron expression or time zone")
    .argument('<id>', 'schedule id')
    .option('--cron <expression>', 'new cron expression')
    .option('--timezone <zone>', 'new IANA time zone')
    .action(
      action(async (ctx: CliContext, [id], options: { cron?: string; timezone?: string }) => {
        if (!options.cron && !options.timezone) throw new UsageError('nothing to change: give --cron and/or --timezone');
        await update(ctx, id as string, { ...(options.cron ? { cron: options.cron } : {}), ...(options.timezone ? { timezone: options.timezone } : {}) });
      }),
    );
}
