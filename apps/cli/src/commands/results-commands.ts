import type { ResultItem } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { UsageError } from '../cli-io.ts';
import { formatBytes } from '../output/format.ts';
import { columnValue } from '../output/kind-columns.ts';
import { cellText, columnsOf, csvLine, flatten, tableColumns } from '../output/result-items.ts';
import { table } from '../output/table.ts';
import { downloadTo } from '../progress/download-file.ts';
import type { Action } from './action.ts';
import { integer } from './jobs-commands.ts';

export function resultsCommands(program: Command, action: Action): void {
  program
    .command('results')
    .description("read a job's results (free; `crawl export` makes a file and counts against exports)")
    .argument('<id>', 'job id')
    .option('--format <format>', 'table, json or csv', 'table')
    .option('--limit <n>', 'at most this many results (default: all)')
    .action(
      action(async (ctx: CliContext, [id], options: { format: string; limit?: string }) => {
        const format = ctx.output.json ? 'json' : options.format;
        if (!['table', 'json', 'csv'].includes(format)) throw new UsageError(`--format must be table, json or csv, got "${format}"`);
        const limit = options.limit === undefined ? Number.POSITIVE_INFINITY : integer('--limit', options.limit);
        const items: ResultItem[] = [];
        const client = ctx.client();
        for await (const item of client.jobs.results(id as string, { pageSize: Math.min(200, limit) })) {
          if (items.length >= limit) break;
          items.push(item);
        }
        const out = ctx.output.stdout;
        if (format === 'json') out.write(`${JSON.stringify(items, null, 2)}\n`);
        else if (format === 'csv') {
          const rows = items.map((item) => flatten(item));
          const columns = columnsOf(rows);
          out.write(`${[csvLine(columns), ...rows.map((row) => csvLine(columns.map((c) => row[c])))].join('\n')}\n`);
        } else if (items.length === 0) out.write('No results\n');
        else {
          const columns = tableColumns(items);
          out.write(
            `${table(
              columns.map((c) => c.toUpperCase()),
              items.map((item) => columns.map((c) => cellText(columnValue(item, c)))),
            )}\n`,
          );
          ctx.output.note(ctx.output.colors.dim(`${items.length} result(s)`));
        }
      }),
    );

  program
    .command('export')
    .description("download a job's results as a CSV or JSON file (counts against your monthly exports)")
    .argument('<id>', 'job id')
    .option('--format <format>', 'csv or json', 'csv')
    .option('-o, --output <file>', 'file to write (default: standard output)')
    .action(
      action(async (ctx: CliContext, [id], options: { format: string; output?: string }) => {
        if (options.format !== 'csv' && options.format !== 'json') throw new UsageError(`--format must be csv or json, got "${options.format}"`);
        const client = ctx.client();
        const job = await client.jobs.get(id as string);
        // The same rule as the API (409 for an unfinished job), checked first so no export is spent on a partial file.
        if (job.status === 'queued' || job.status === 'running') {
          throw new Error(`job ${job.id} is still ${job.status}: wait for it (\`crawl jobs watch ${job.id}\`) and export it then`);
        }
        const download = await client.jobs.export(job.id, { format: options.format });
        const file = options.output === undefined || options.output === '-' ? undefined : ctx.path(options.output);
        const written = await downloadTo(download, file, ctx.output, job.resultCount);
        if (file === undefined) return;
        ctx.output.result(
          { jobId: job.id, format: options.format, file, bytes: written.bytes, rows: job.resultCount },
          () => `Saved ${job.resultCount} result(s) of job ${job.id} to ${file} (${formatBytes(written.bytes)})`,
        );
      }),
    );
}
