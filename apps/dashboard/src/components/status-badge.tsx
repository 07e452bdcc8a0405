/** A job or target status as a coloured badge (the word is always shown, not colour alone). */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`status status-${status}`}>{status}</span>;
}
