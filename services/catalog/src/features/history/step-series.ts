/** A change point as the series reads it: its values held from `from` to `to` (ms). */
export interface StepPoint<R> {
  from: number;
  to: number;
  row: R;
}

export interface Bucket<R> {
  /** The bucket's start (ms since the epoch, a multiple of its size). */
  start: number;
  /** The bucket's end, or the last check in it when the data ends inside it. */
  to: number;
  /** The change point in force at the end of the bucket (the last one overlapping it). */
  row: R;
}

/**
 * Downsamples change points (in time order) into fixed buckets for charts: one per bucket any
 * point overlaps, holding the point in force at the bucket's end, so a chart shows the value a
 * reader would have seen at that moment (a change and its reversal inside one hour show as
 * none). Buckets from `startMs` on, at most `limit`; `next` is the start of the bucket after
 * them when points go on beyond.
 */
export function downsample<R>(
  points: Iterable<StepPoint<R>>,
  options: { size: number; startMs?: number; toMs?: number; limit: number },
): { buckets: Bucket<R>[]; next: number | null } {
  const { size, limit } = options;
  const buckets: Bucket<R>[] = [];
  for (const point of points) {
    const end = Math.min(point.to, options.toMs ?? Number.POSITIVE_INFINITY);
    let start = Math.floor(point.from / size) * size;
    if (options.startMs !== undefined) start = Math.max(start, Math.floor(options.startMs / size) * size);
    for (let bucket = start; bucket <= end; bucket += size) {
      const last = buckets[buckets.length - 1];
      const entry = { start: bucket, to: Math.min(bucket + size, point.to), row: point.row };
      if (last && last.start === bucket) buckets[buckets.length - 1] = entry;
      else if (buckets.length === limit) return { buckets, next: bucket };
      else buckets.push(entry);
    }
  }
  return { buckets, next: null };
}
