import { errorText } from '../api/error-text.ts';

/** An error in words, announced to screen readers as it appears. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(error)}
    </p>
  );
}
