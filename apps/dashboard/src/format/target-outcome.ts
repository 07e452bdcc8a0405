import type { BlockKind, Target, UnchargedReason } from '@crawl/sdk';

const BLOCK_KINDS: Record<BlockKind, string> = {
  captcha: 'captcha',
  challenge: 'challenge page',
  interstitial: 'interstitial page',
  error_page: 'error page',
  robot_check: 'robot check',
  rate_limited: 'rate limited',
  signin_wall: 'sign-in wall',
};

const UNCHARGED: Record<UnchargedReason, string> = {
  partial: 'a required field is missing',
  location_unverified: 'delivery location not verified',
};

/** What a target was resolved to (an ASIN, node id, seller id or prefix), when that is not the target as typed. */
export function resolvedKey(target: Target): string | undefined {
  const key = target.asin ?? target.key;
  return key !== undefined && key !== target.value ? key : undefined;
}

/** The Charged cell: only a success is charged or not. */
export function chargedText(target: Target): string {
  if (target.charged === undefined) return '';
  return target.charged ? 'yes' : 'no';
}

/**
 * Why a target failed or was not charged, as a heading (`blocked: challenge page`, `not charged: a
 * required field is missing`) and the crawler's own detail (`challenge (HTTP 200) after 4 attempts`).
 * Nothing for a charged success or an open target.
 */
export function targetWhy(target: Target): { summary?: string; detail?: string } {
  const detail = target.message ? { detail: target.message } : {};
  if (target.status === 'success') return target.uncharged ? { summary: `not charged: ${UNCHARGED[target.uncharged] ?? target.uncharged}`, ...detail } : {};
  if (!target.reason) return {};
  const kind = target.blockKind ? `: ${BLOCK_KINDS[target.blockKind] ?? target.blockKind}` : '';
  return { summary: `${target.reason}${kind}`, ...detail };
}
