// Interleaved rounds and medians: every figure is a ratio against a baseline measured in the same
// run, round by round, with the order of the cases rotated between rounds.
import { loadavg } from 'node:os';

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export function note(message: string): void {
  console.log(`  · ${message}`);
}

/**
 * Runs every case once per round, in an order rotated by one each round (A B C, B C A, C A B, …),
 * so no case always runs first or right after another. @returns each case's values, round by round.
 */
export async function interleaved<K extends string, R>(
  rounds: number,
  cases: Record<K, () => Promise<R>>,
  onRound?: (round: number, values: Record<K, R>) => void,
): Promise<Record<K, R[]>> {
  const names = Object.keys(cases) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as R[]])) as unknown as Record<K, R[]>;
  for (let round = 0; round < rounds; round += 1) {
    const values = {} as Record<K, R>;
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length] as K;
      values[name] = await cases[name]();
      out[name].push(values[name]);
    }
    onRound?.(round, values);
  }
  return out;
}

/** Median of the per-round ratios `top[i] / bottom[i]` (stays meaningful when the machine is shared); NaN when no round had a baseline. */
export function ratioOfRounds(top: readonly number[], bottom: readonly number[]): number {
  return median(top.map((t, i) => t / (bottom[i] as number)).filter(Number.isFinite));
}
