/** A labelled horizontal bar: used of a limit (red once nearly used up), progress of a job. */
export function Bar({ label, value, max, text, kind = 'limit' }: { label: string; value: number; max: number; text?: string; kind?: 'limit' | 'progress' }) {
  const ratio = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <div class="bar">
      <div class="bar-label">
        <span>{label}</span>
        <span>{text ?? `${value.toLocaleString()} / ${max.toLocaleString()}`}</span>
      </div>
      <div class="bar-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={value}>
        <div class={`bar-fill${kind === 'limit' && ratio >= 0.9 ? ' bar-high' : ''}`} style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
      </div>
    </div>
  );
}
