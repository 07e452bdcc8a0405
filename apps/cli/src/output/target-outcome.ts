import { chargesOf, type Job, type Target } from '@crawl/sdk';

/** `2 charged, 1 uncharged`: the successes credits are captured for, and those delivered without charge. */
export function chargesLine(job: Pick<Job, 'targets' | 'charges'>): string {
  const charges = chargesOf(job);
  return `${charges.chargedTargets} charged, ${charges.unchargedTargets} uncharged`;
}

/**
 * Why a target failed or went uncharged, in one cell: `blocked (captcha): captcha (HTTP 200) after
 * 4 attempts`, `partial: price missing`. Nothing for a charged success or an open target.
 */
export function whyOf(target: Target): string | undefined {
  const code = target.status === 'success' ? target.uncharged : target.blockKind && target.reason ? `${target.reason} (${target.blockKind})` : target.reason;
  if (!code) return undefined;
  return target.message ? `${code}: ${target.message}` : code;
}
