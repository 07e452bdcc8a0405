import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { TargetList, TargetListUpload, UploadBody } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { UsageError } from '../cli-io.ts';
import { formatTime } from '../output/format.ts';
import { fields, table } from '../output/table.ts';
import type { Action } from './action.ts';
import { jobType } from './job-input.ts';
import { defaultProject } from './projects-commands.ts';

/** Refused lines printed in text mode (all of the answer's with --json). */
const SHOWN_REFUSALS = 20;

interface UploadOptions {
  project?: string;
  type: string;
  name?: string;
  format?: string;
}

export function listsCommands(program: Command, action: Action): void {
  const lists = program.command('lists').description('target lists: up to 100,000 targets uploaded once, then named by jobs (--list), schedules and monitors');

  lists
    .command('upload')
    .description('upload a list, streamed as it is read: one target a line, or CSV (its target, asin, keyword or url column, else the first)')
    .argument('<file>', 'the file (- for standard input); .csv is sent as CSV')
    .option('--project <id>', 'project (default: your oldest active project)')
    .requiredOption('--type <type>', 'the job type its targets are checked for (details, search, …)')
    .option('--name <name>', 'a label (default: "<type> list")')
    .option('--format <format>', 'text or csv (default: by the file name)')
    .action(
      action(async (ctx: CliContext, [file], options: UploadOptions) => {
        const type = jobType(options.type);
        const format = formatOf(file as string, options.format);
        const body = await fileStream(ctx, file as string);
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const uploaded = await client.targetLists.upload(projectId, { type, ...(options.name ? { name: options.name } : {}) }, body, { format });
        ctx.output.result(uploaded, () => uploadSummary(uploaded));
      }),
    );

  lists
    .command('list')
    .description("a project's target lists, newest first")
    .option('--project <id>', 'project (default: your oldest active project)')
    .action(
      action(async (ctx: CliContext, _args, options: { project?: string }) => {
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const page = await client.targetLists.list(projectId, { limit: 100 });
        ctx.output.result(page.data, () =>
          page.data.length === 0
            ? 'No target lists'
            : table(
                ['ID', 'NAME', 'TYPE', 'TARGETS', 'CREATED'],
                page.data.map((l) => [l.id, l.name, l.type, String(l.counts.accepted), formatTime(l.createdAt)]),
              ),
        );
      }),
    );

  lists
    .command('get')
    .description('a target list and a page of its targets')
    .argument('<id>', 'target list id')
    .option('--limit <n>', 'targets shown (at most 1000)', '20')
    .option('--offset <n>', 'the first target shown', '0')
    .action(
      action(async (ctx: CliContext, [id], options: { limit: string; offset: string }) => {
        const read = await ctx.client().targetLists.get(id as string, { limit: count('--limit', options.limit), offset: count('--offset', options.offset) });
        ctx.output.result(read, () => {
          const shown = read.targets.length === 0 ? '' : `\n\n${read.targets.join('\n')}`;
          const range = `${read.meta.offset + 1}-${read.meta.offset + read.targets.length} of ${read.meta.total}`;
          return `${describeList(read.list)}${shown}${read.targets.length < read.meta.total ? `\n(${range})` : ''}`;
        });
      }),
    );

  lists
    .command('delete')
    .description('delete a target list (jobs already created from it keep their targets)')
    .argument('<id>', 'target list id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        await ctx.client().targetLists.delete(id as string);
        ctx.output.result({ deleted: id }, () => `Deleted target list ${id}`);
      }),
    );
}

function formatOf(file: string, given: string | undefined): 'text' | 'csv' {
  if (given === undefined) return file.toLowerCase().endsWith('.csv') ? 'csv' : 'text';
  if (given === 'text' || given === 'csv') return given;
  throw new UsageError(`--format must be text or csv, got "${given}"`);
}

/** The file as a web stream read a chunk at a time: a list of any size is never held whole. */
async function fileStream(ctx: CliContext, file: string): Promise<UploadBody> {
  if (file === '-') return Readable.toWeb(Readable.from(ctx.io.stdin)) as ReadableStream<Uint8Array>;
  const path = ctx.path(file);
  try {
    if (!(await stat(path)).isFile()) throw new Error('not a file');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
}

function count(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
}

function describeList(list: TargetList): string {
  const c = list.counts;
  return fields([
    ['ID', list.id],
    ['NAME', list.name],
    ['TYPE', list.type],
    ['TARGETS', `${c.accepted} (of ${c.received} lines: ${c.duplicates} duplicate(s), ${c.rejected} refused)`],
    ['CREATED', formatTime(list.createdAt)],
  ]);
}

function uploadSummary(uploaded: TargetListUpload): string {
  const { list, rejectedLines } = uploaded;
  const c = list.counts;
  const head = `Uploaded target list ${list.id}: ${c.accepted} ${list.type} target(s) accepted, ${c.duplicates} duplicate(s), ${c.rejected} refused`;
  if (rejectedLines.length === 0) return `${head}\nUse it: crawl jobs create --type ${list.type} --list ${list.id}`;
  const shown = rejectedLines.slice(0, SHOWN_REFUSALS).map((r) => `  line ${r.line}: ${JSON.stringify(r.value)} ${r.reason}`);
  const more = c.rejected > shown.length ? [`  … ${c.rejected - shown.length} more (--json lists up to ${rejectedLines.length})`] : [];
  return [head, 'Refused:', ...shown, ...more, `Use it: crawl jobs create --type ${list.type} --list ${list.id}`].join('\n');
}
