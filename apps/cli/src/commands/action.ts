import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../cli-context.ts';

/** A command's body: the context, its positional arguments, and its own options. */
export type CommandBody<O> = (ctx: CliContext, args: string[], options: O) => Promise<void>;

/** Turns a command body into a commander action: builds the context from the global options (`--json`, `--base-url`). */
export type Action = <O>(body: CommandBody<O>) => (...args: unknown[]) => Promise<void>;

export function actionFactory(makeContext: (globals: GlobalOptions) => CliContext): Action {
  return <O>(body: CommandBody<O>) =>
    async (...args: unknown[]) => {
      const command = args.at(-1) as Command;
      const options = args.at(-2) as O;
      const positional = args.slice(0, -2) as string[];
      await body(makeContext(command.optsWithGlobals<GlobalOptions>()), positional, options);
    };
}
