import picocolors from 'picocolors';
import type { CliIo, OutputStream } from '../cli-io.ts';

export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Where results and messages go: results on stdout (JSON with `--json`, text otherwise), notes and
 * progress on stderr so a pipe or `$(…)` gets only the result. Colours only on a terminal, and
 * never with NO_COLOR set.
 */
export class Output {
  readonly json: boolean;
  readonly colors: Colors;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;

  constructor(io: CliIo, json: boolean) {
    this.json = json;
    this.stdout = io.stdout;
    this.stderr = io.stderr;
    const colour = !json && io.stdout.isTTY === true && !io.env.NO_COLOR && io.env.TERM !== 'dumb';
    this.colors = picocolors.createColors(colour);
  }

  /** Live progress (bars) only on an interactive stderr, and never with `--json`. */
  get interactive(): boolean {
    return !this.json && this.stderr.isTTY === true;
  }

  /** The command's result: `value` as JSON with `--json`, else what `human` renders. */
  result(value: unknown, human: () => string): void {
    const text = this.json ? JSON.stringify(value, null, 2) : human();
    if (text !== '') this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** A side remark for people (stderr), not part of the result. */
  note(message: string): void {
    if (!this.json) this.stderr.write(`${message}\n`);
  }
}
