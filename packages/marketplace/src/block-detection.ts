export type BlockReason = 'captcha' | 'robot_check' | 'api_services_support' | 'rate_limited' | 'service_unavailable';

export type BlockVerdict = { blocked: true; reason: BlockReason } | { blocked: false };

export interface BlockCheckInput {
  status: number;
  html: string;
  headers?: Record<string, string | string[] | undefined>;
}

// Block and error pages are a few KB and put their markers near the top; real result pages are
// 1–2 MB. Looking only at a bounded prefix keeps the check O(1) in page size, and keeps marker-like
// strings deep inside a legitimate page's scripts from causing false positives.
export const BLOCK_SCAN_CHARS = 64 * 1024;

const ROBOT = /<title[^>]*>\s*Robot Check\s*<\/title>|make sure you(?:'|’|&#39;|&rsquo;)re not a robot/i;
const CAPTCHA =
  /\/errors\/validateCaptcha|id=["']?captchacharacters|<img[^>]+src=["'][^"']*\/captcha\/|Enter the characters you see below|Geben Sie die angezeigten Zeichen|Saisissez les caractères|表示されている文字を入力/i;
const API_SERVICES = /api-services-support@amazon\.com/i;
// The dogs of Amazon also decorate the ordinary 404 page, so they are no marker on their own.
const SORRY = /Sorry! Something went wrong|503 - Service Unavailable/i;

function header(headers: BlockCheckInput['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== name) continue;
    const value = headers[key];
    return Array.isArray(value) ? value.join(',') : value;
  }
  return undefined;
}

/**
 * Recognises anti-bot and throttling responses, including ones served with HTTP 200. The more
 * specific page wins over the status: the captcha is often sent as a 503, and is a captcha.
 */
export function detectBlock(input: BlockCheckInput): BlockVerdict {
  const head = input.html.length > BLOCK_SCAN_CHARS ? input.html.slice(0, BLOCK_SCAN_CHARS) : input.html;
  const wafAction = header(input.headers, 'x-amzn-waf-action')?.toLowerCase();

  if (ROBOT.test(head)) return { blocked: true, reason: 'robot_check' };
  if (wafAction === 'captcha' || wafAction === 'challenge' || CAPTCHA.test(head)) {
    return { blocked: true, reason: 'captcha' };
  }
  if (API_SERVICES.test(head)) return { blocked: true, reason: 'api_services_support' };
  if (input.status === 429) return { blocked: true, reason: 'rate_limited' };
  if (input.status === 503 || SORRY.test(head)) return { blocked: true, reason: 'service_unavailable' };
  return { blocked: false };
}
