const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

/**
 * Values as one line of bar characters, lowest `▁` to highest `█`; a gap (null) is a space. With
 * `invert` the lowest value gets the tallest bar (a rank: first place is the best). All values
 * equal draw a flat middle line.
 */
export function sparkline(values: ReadonlyArray<number | null>, options: { invert?: boolean } = {}): string {
  const present = values.filter((value): value is number => value !== null);
  if (present.length === 0) return ' '.repeat(values.length);
  const low = Math.min(...present);
  const high = Math.max(...present);
  return values
    .map((value) => {
      if (value === null) return ' ';
      if (high === low) return BARS[3];
      const share = (value - low) / (high - low);
      const level = Math.round((options.invert ? 1 - share : share) * (BARS.length - 1));
      return BARS[level];
    })
    .join('');
}

/** A value held over a stretch of time (ms since the epoch): a change point of history. */
export interface Step {
  from: number;
  to: number;
  value: number | null;
}

/**
 * A step series read at `width` evenly spaced moments from the first step's start to the last
 * one's end, so a value held for a week is wider than one held for an hour. A moment after a
 * step's end and before the next one starts still reads the step before (the value last seen).
 */
export function sampleSteps(steps: readonly Step[], width: number): Array<number | null> {
  const first = steps[0];
  const last = steps[steps.length - 1];
  if (!first || !last || width < 1) return [];
  const start = first.from;
  const span = Math.max(0, last.to - start);
  if (span === 0) return steps.slice(-width).map((step) => step.value);
  const samples: Array<number | null> = [];
  let index = 0;
  for (let i = 0; i < width; i++) {
    const at = width === 1 ? last.to : start + (span * i) / (width - 1);
    while (index + 1 < steps.length && (steps[index + 1] as Step).from <= at) index++;
    samples.push((steps[index] as Step).value);
  }
  return samples;
}
