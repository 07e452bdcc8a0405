import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { formatTime } from '../output/format.ts';
import { table } from '../output/table.ts';
import type { Action } from './action.ts';

export function usageCommand(program: Command, action: Action): void {
  program
    .command('usage')
    .description("this month's limits, consumption and credit balance of your organization")
    .action(
      action(async (ctx: CliContext) => {
        const usage = await ctx.client().usage();
        ctx.output.result(usage, () => {
          const rows = [
            ['jobs', usage.used.jobsThisMonth, usage.limits.jobsPerMonth, usage.remaining.jobsPerMonth],
            ['targets', usage.used.targetsThisMonth, usage.limits.targetsPerMonth, usage.remaining.targetsPerMonth],
            ['exports', usage.used.exportsThisMonth, usage.limits.exportsPerMonth, usage.remaining.exportsPerMonth],
          ];
          return [
            table([usage.month, 'USED', 'LIMIT', 'REMAINING'], rows),
            '',
            `credits: ${usage.credits.available} available, ${usage.credits.reserved} reserved`,
            // Absent from a server that predates charges.
            ...(usage.charges
              ? [`targets settled: ${usage.charges.chargedTargets} charged, ${usage.charges.unchargedTargets} uncharged (delivered without charge)`]
              : []),
            ctx.output.colors.dim(`counters reset ${formatTime(usage.resetsAt)}`),
          ].join('\n');
        });
      }),
    );
}
