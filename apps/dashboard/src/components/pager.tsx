/** Previous/next over an offset-paged list; `total` when the API reports it. */
export function Pager({
  offset,
  limit,
  count,
  total,
  onChange,
}: {
  offset: number;
  limit: number;
  count: number;
  total?: number | undefined;
  onChange: (offset: number) => void;
}) {
  const hasNext = total === undefined ? count === limit : offset + count < total;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span aria-live="polite">
        {count === 0 ? 'None' : `${offset + 1}–${offset + count}`}
        {total === undefined ? '' : ` of ${total}`}
      </span>
      <button type="button" class="secondary" disabled={!hasNext} onClick={() => onChange(offset + limit)}>
        Next
      </button>
    </nav>
  );
}
