import { isCrawlApiError } from '@crawl/sdk';

/** What went wrong, in words a user can act on; the request id is quoted for support. */
export function errorText(error: unknown): string {
  if (!isCrawlApiError(error)) return error instanceof Error ? error.message : String(error);
  const detail = error.details
    .map((d) =>
      typeof d === 'object' && d !== null && 'message' in d
        ? `${String((d as { field?: string; message: unknown }).field ?? '')} ${String((d as { message: unknown }).message)}`
        : '',
    )
    .map((s) => s.trim())
    .filter(Boolean)
    .join('; ');
  const base = wordsFor(error.status, error.code, error.message, error.retryAfterMs);
  return detail && !base.includes(detail) ? `${base} (${detail})` : base;
}

function wordsFor(status: number, code: string, message: string, retryAfterMs: number | undefined): string {
  switch (code) {
    case 'INVALID_CREDENTIALS':
      return 'Wrong email or password.';
    case 'INSUFFICIENT_CREDITS':
      // A refusal by the job's own cap is not a balance problem: buying credits would not help.
      if (/maxCredits/.test(message)) return `Over your spending cap: ${message}. Raise "Spend at most" or remove it.`;
      return `Not enough credits for this job: ${message}. Buy a credit package on the Usage page.`;
    default:
      break;
  }
  if (status === 429) return `Too many attempts. Try again in ${Math.max(1, Math.ceil((retryAfterMs ?? 60_000) / 1000))} seconds.`;
  if (status === 402) return `Payment required: ${message}`;
  if (status === 403 && /limit/i.test(message)) return `${message}. Monthly limits start again on the 1st (see Usage and credits).`;
  if (status === 403) return `Not allowed: ${message}`;
  if (status === 401) return 'Your session has ended. Sign in again.';
  return message;
}
