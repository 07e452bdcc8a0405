import type { CrawlClient, Project } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { formatTime } from '../output/format.ts';
import type { Output } from '../output/output.ts';
import { table } from '../output/table.ts';
import type { Action } from './action.ts';

export function projectsCommands(program: Command, action: Action): void {
  const projects = program.command('projects').description('list, create and archive projects');

  projects
    .command('list')
    .description("the organization's projects")
    .option('--archived', 'only archived projects')
    .option('--all', 'archived ones too')
    .action(
      action(async (ctx: CliContext, _args, options: { archived?: boolean; all?: boolean }) => {
        const client = ctx.client();
        const query = options.all ? {} : { archived: options.archived === true };
        const list: Project[] = [];
        for await (const project of client.projects.iterate(query)) list.push(project);
        ctx.output.result(list, () =>
          list.length === 0
            ? 'No projects yet: `crawl projects create NAME`'
            : table(
                ['ID', 'NAME', 'ARCHIVED', 'CREATED'],
                list.map((p) => [p.id, p.name, p.archived ? 'yes' : 'no', formatTime(p.createdAt)]),
              ),
        );
      }),
    );

  projects
    .command('create')
    .description('create a project')
    .argument('<name>', 'project name')
    .action(
      action(async (ctx: CliContext, [name]) => {
        const project = await ctx.client().projects.create({ name: name as string });
        ctx.output.result(project, () => `Created project ${ctx.output.colors.bold(project.name)} (${project.id})`);
      }),
    );

  for (const [verb, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    projects
      .command(verb)
      .description(archived ? 'archive a project (its jobs and results stay readable)' : 'bring an archived project back')
      .argument('<id>', 'project id')
      .action(
        action(async (ctx: CliContext, [id]) => {
          const project = await ctx.client().projects.update(id as string, { archived });
          ctx.output.result(project, () => `${archived ? 'Archived' : 'Unarchived'} project ${project.name} (${project.id})`);
        }),
      );
  }
}

export const DEFAULT_PROJECT_NAME = 'Default';

/**
 * The project a command without `--project` works in: the oldest project that is not archived,
 * or a new one named "Default" when there is none, so a new user needs no project step.
 */
export async function defaultProject(client: CrawlClient, output: Output): Promise<Project> {
  let oldest: Project | undefined;
  for await (const project of client.projects.iterate({ archived: false })) {
    if (!oldest || project.createdAt < oldest.createdAt) oldest = project;
  }
  if (oldest) {
    output.note(output.colors.dim(`Project: ${oldest.name} (${oldest.id}); choose another with --project ID`));
    return oldest;
  }
  const created = await client.projects.create({ name: DEFAULT_PROJECT_NAME });
  output.note(output.colors.dim(`Created project ${created.name} (${created.id}) for your jobs`));
  return created;
}
