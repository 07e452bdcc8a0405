import type { WebhookEndpoint } from '@crawl/sdk';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { formatTime } from '../output/format.ts';
import { table } from '../output/table.ts';
import type { Action } from './action.ts';
import { collect } from './job-input.ts';
import { defaultProject } from './projects-commands.ts';

type WebhookEvent = NonNullable<WebhookEndpoint['events']>[number];

export function webhooksCommands(program: Command, action: Action): void {
  const webhooks = program.command('webhooks').description('signed POSTs to your endpoint when jobs end');

  webhooks
    .command('list')
    .description("a project's webhook endpoints")
    .option('--project <id>', 'project (default: your oldest active project)')
    .action(
      action(async (ctx: CliContext, _args, options: { project?: string }) => {
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const list = await client.webhooks.list(projectId);
        ctx.output.result(list, () =>
          list.length === 0
            ? 'No webhooks'
            : table(
                ['ID', 'URL', 'EVENTS', 'ENABLED', 'LAST SUCCESS', 'FAILURES'],
                list.map((w) => [
                  w.id,
                  w.url,
                  w.events.join(' '),
                  w.enabled ? 'yes' : `no${w.disabledReason ? ` (${w.disabledReason.code})` : ''}`,
                  formatTime(w.lastSuccessAt),
                  w.consecutiveFailures,
                ]),
              ),
        );
      }),
    );

  webhooks
    .command('create')
    .description('register an endpoint; its signing secret is shown once')
    .option('--project <id>', 'project (default: your oldest active project)')
    .requiredOption('--url <url>', 'https URL that receives the POSTs')
    .option('--event <type>', 'job.completed, job.failed, job.cancelled or schedule.failed; repeatable (default: all)', collect)
    .option('--description <text>', 'a note for yourself')
    .action(
      action(async (ctx: CliContext, _args, options: { project?: string; url: string; event?: string[]; description?: string }) => {
        const client = ctx.client();
        const projectId = options.project ?? (await defaultProject(client, ctx.output)).id;
        const hook = await client.webhooks.create(projectId, {
          url: options.url,
          ...(options.event ? { events: options.event as WebhookEvent[] } : {}),
          ...(options.description ? { description: options.description } : {}),
        });
        ctx.output.result(hook, () => `Created webhook ${hook.id} for ${hook.url}\nsigning secret (shown only now): ${ctx.output.colors.bold(hook.secret)}`);
      }),
    );

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    webhooks
      .command(verb)
      .description(`${verb} an endpoint`)
      .argument('<id>', 'webhook id')
      .action(
        action(async (ctx: CliContext, [id]) => {
          const hook = await ctx.client().webhooks.update(id as string, { enabled });
          ctx.output.result(hook, () => `Webhook ${hook.id} ${hook.enabled ? 'enabled' : 'disabled'}`);
        }),
      );
  }

  webhooks
    .command('delete')
    .description('delete an endpoint and its delivery log')
    .argument('<id>', 'webhook id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        await ctx.client().webhooks.delete(id as string);
        ctx.output.result({ deleted: id }, () => `Deleted webhook ${id}`);
      }),
    );

  webhooks
    .command('rotate-secret')
    .description('a new signing secret (the previous one keeps working for a while)')
    .argument('<id>', 'webhook id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const hook = await ctx.client().webhooks.rotateSecret(id as string);
        ctx.output.result(hook, () => `New signing secret of ${hook.id} (shown only now): ${ctx.output.colors.bold(hook.secret)}`);
      }),
    );

  webhooks
    .command('test')
    .description('send a webhook.test event now')
    .argument('<id>', 'webhook id')
    .action(
      action(async (ctx: CliContext, [id]) => {
        const delivery = await ctx.client().webhooks.test(id as string);
        ctx.output.result(delivery, () => `Queued test delivery ${delivery.id} (${delivery.status})`);
      }),
    );

  webhooks
    .command('deliveries')
    .description("an endpoint's delivery log, newest first")
    .argument('<id>', 'webhook id')
    .option('--limit <n>', 'how many (default 20)', '20')
    .action(
      action(async (ctx: CliContext, [id], options: { limit: string }) => {
        const page = await ctx.client().webhooks.deliveries(id as string, { limit: Number(options.limit) });
        ctx.output.result(page, () =>
          page.data.length === 0
            ? 'No deliveries'
            : table(
                ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'CREATED'],
                page.data.map((d) => [d.id, d.eventType, d.status, d.attemptCount, formatTime(d.createdAt)]),
              ),
        );
      }),
    );

  webhooks
    .command('replay')
    .description('send a delivery again now')
    .argument('<id>', 'webhook id')
    .argument('<deliveryId>', 'delivery id')
    .action(
      action(async (ctx: CliContext, [id, deliveryId]) => {
        const delivery = await ctx.client().webhooks.replay(id as string, deliveryId as string);
        ctx.output.result(delivery, () => `Replaying delivery ${delivery.id} (${delivery.status})`);
      }),
    );
}
