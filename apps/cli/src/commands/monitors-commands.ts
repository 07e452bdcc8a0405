import { type CrawlClient, type Job, type Monitor, type MonitorEvent, ruleInWords } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { formatTime } from '../output/format.ts';
import { describeMonitor, eventsTable, monitorsTable, scheduleText, statusText } from '../output/monitor-view.ts';
import { followJob } from '../progress/follow-job.ts';
import type { Action } from './action.ts';
import { collect, monitorType, readTargets } from './job-input.ts';
import { integer } from './jobs-commands.ts';
import { createMonitorBody, DEFAULT_MONITOR_DOMAIN, type MonitorCreateOptions } from './monitor-input.ts';
import { defaultProject } from './projects-commands.ts';

/** As commander hands `monitors create`'s flags over: the targets still as flags and a file, the type as typed. */
type CreateOptions = Omit<MonitorCreateOptions, 'type' | 'targets'> & { project?: string; type: string; target?: string[]; targetsFile?: string };

export function monitorsCommands(program: Command, action: Action): void {
  const monitors = program
    .command('monitors')
    .description('scheduled checks of products or search results with rules that fire when a value changes (price drops, stock, buy box, ranks)');

  monitors
    .command('create')
    .description('create a monitor: its targets are crawled on a schedule and its rules read what changed')
    .option('--project <id>', 'project (default: your oldest active project)')
    .requiredOption('--name <name>', 'a name for it')
    .requiredOption('--type <type>', 'details (targets are ASINs or product URLs) or search (keywords)')
    .option('--target <target>', 'an ASIN, product URL or keyword; repeat for more', collect)
    .option('--targets-file <file>', 'one target per line (- for standard input)')
    .option('--domain <domain>', `storefront (default ${DEFAULT_MONITOR_DOMAIN})`)
    .option('--zip <zip>', 'delivery postal code on that storefront')
    .option('--every <interval>', 'how often: 15m to 7d (15m, 6h, 1d)')
    .option('--cron <expression>', 'or a cron rule, e.g. "0 6 * * *" (at most every 15 minutes)')
    .option('--timezone <zone>', 'with --cron: its IANA time zone (default UTC)')
    .option('--watch <fields>', "fields to follow besides the rules' own (comma-separated or repeated)", collect)
    .option(
      '--rule <rule>',
      'FIELD OP [VALUE] [confirm], e.g. "price dropsBy 10", "inStock becomesUnavailable", "organicRank entersTop 3"; repeatable',
      collect,
    )
    .option('--cooldown <duration>', 'keep a rule quiet this long after it fired for a target (0m to 30d; default 1h)')
    .option('--max-credits-per-month <credits>', 'pause the monitor rather than reserve more than this in a month')
    .option('--paused', 'create it paused')
    .addHelpText(
      'after',
      `
Rule operations: changed (any field), dropsBy / risesBy PERCENT and below / above THRESHOLD (number fields),
becomesUnavailable / becomesAvailable (inStock), sellerChanges (buyBoxSeller), entersTop / leavesTop RANK (organicRank).
Add "confirm" to crawl the target once more before a rule fires.

Example:
  crawl monitors create --name "Headphones" --type details --target B0SIM00001 --domain amazon.de \\
    --every 6h --rule "price dropsBy 10" --rule "inStock becomesUnavailable" --max-credits-per-month 500`,
    )
    .action(
      action(async (ctx: CliContext, _args, options: CreateOptions) => {
        const body = createMonitorBody({
          ...options,
          type: monitorType(options.type),
          targets: readTargets(options.target, options.targetsFile, (file) => ctx.path(file)),
        });
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const monitor = await client.monitors.create(projectId, body);
        ctx.output.result(monitor, () => {
          const c = ctx.output.colors;
          const when = monitor.status === 'active' ? `next run ${formatTime(monitor.nextRunAt)}` : 'paused';
          return `Created monitor ${c.bold(monitor.id)} "${monitor.name}": ${monitor.targets.length} ${monitor.type} target(s) on ${monitor.domain}, ${scheduleText(monitor)}, ${monitor.credits.perRun} credits per run; ${when}\n${describeRules(monitor)}`;
        });
      }),
    );

  monitors
    .command('list')
    .description("a project's monitors, newest first")
    .option('--project <id>', 'project (default: your oldest active project)')
    .action(
      action(async (ctx: CliContext, _args, options: { project?: string }) => {
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const list: Monitor[] = [];
        for await (const monitor of client.monitors.iterate(projectId)) list.push(monitor);
        ctx.output.result(list, () => (list.length === 0 ? 'No monitors' : monitorsTable(list, ctx.output.colors)));
      }),
    );

  monitors
    .command('get')
    .description('a monitor: its definition, rules in words, status, credits this month and last run')
    .argument('<id>', 'monitor id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const monitor = await ctx.client().monitors.get(id as string);
        ctx.output.result(monitor, () => describeMonitor(monitor, ctx.output.colors));
      }),
    );

  for (const verb of ['pause', 'resume'] as const) {
    monitors
      .command(verb)
      .description(verb === 'pause' ? 'stop its scheduled runs until it is resumed' : 'start its scheduled runs again (also after its budget paused it)')
      .argument('<id>', 'monitor id')
      .action(
        action(async (ctx: CliContext, [id]) => {
          const client = ctx.client();
          const monitor = verb === 'pause' ? await client.monitors.pause(id as string) : await client.monitors.resume(id as string);
          ctx.output.result(
            monitor,
            () =>
              `Monitor ${monitor.id} ${statusText(monitor, ctx.output.colors)}${monitor.status === 'active' ? `, next run ${formatTime(monitor.nextRunAt)}` : ''}`,
          );
        }),
      );
  }

  monitors
    .command('run')
    .description('run it once now (also while paused): a job over its targets, charged like a scheduled run')
    .argument('<id>', 'monitor id')
    .option('--wait', 'follow the run until it ends, then list the rules it fired')
    .option('--timeout <seconds>', 'with --wait: give up after this long')
    .action(
      action(async (ctx: CliContext, [id], options: { wait?: boolean; timeout?: string }) => {
        const client = ctx.client();
        const job = await client.monitors.run(id as string);
        const started = `Started run ${job.id} of monitor ${id}: ${job.targets.length} target(s), ${job.creditsReserved} credits reserved`;
        if (!options.wait) {
          ctx.output.result(job, () => `${started}\n${ctx.output.colors.dim(`Follow it: crawl jobs watch ${job.id}`)}`);
          return;
        }
        ctx.output.note(started);
        const ended = await followJob(
          client,
          ctx.output,
          job.id,
          options.timeout === undefined ? {} : { timeoutMs: integer('--timeout', options.timeout) * 1000 },
        );
        const fired = await eventsOfJob(client, id as string, ended);
        ctx.output.result({ job: ended, events: fired }, () => {
          const head = `Run ${ended.id} ${ended.status}: ${fired.length} rule(s) fired`;
          return fired.length === 0 ? head : `${head}\n\n${eventsTable(fired)}`;
        });
        if (ended.status !== 'completed') ctx.exitCode = 1;
      }),
    );

  monitors
    .command('events')
    .description("what the monitor's rules fired, newest first")
    .argument('<id>', 'monitor id')
    .option('--limit <n>', 'how many (default 20, at most 100)', '20')
    .option('--offset <n>', 'skip this many', '0')
    .action(
      action(async (ctx: CliContext, [id], options: { limit: string; offset: string }) => {
        const page = await ctx
          .client()
          .monitors.events(id as string, { limit: integer('--limit', options.limit), offset: integer('--offset', options.offset) });
        ctx.output.result(page, () => {
          if (page.data.length === 0) return page.meta.offset === 0 ? 'No events yet: no rule has fired' : 'No more events';
          const shown = `${page.meta.offset + 1}-${page.meta.offset + page.data.length} of ${page.meta.total}`;
          return `${eventsTable(page.data)}\n${ctx.output.colors.dim(shown)}`;
        });
      }),
    );

  monitors
    .command('delete')
    .description('delete a monitor and its events (its jobs stay)')
    .argument('<id>', 'monitor id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        await ctx.client().monitors.delete(id as string);
        ctx.output.result({ id, deleted: true }, () => `Deleted monitor ${id}`);
      }),
    );
}

function describeRules(monitor: Monitor): string {
  return monitor.rules.map((rule, i) => `  ${i + 1}. ${ruleInWords(rule)}`).join('\n');
}

/**
 * The events the run's job fired, newest first: the list is newest first, so it is read until an
 * event older than the job (a confirmation of a rule may still fire later: those come in `events`).
 */
async function eventsOfJob(client: CrawlClient, monitorId: string, job: Job): Promise<MonitorEvent[]> {
  const fired: MonitorEvent[] = [];
  for await (const event of client.monitors.iterateEvents(monitorId)) {
    if (event.createdAt < job.createdAt) break;
    if (event.jobId === job.id) fired.push(event);
  }
  return fired;
}
