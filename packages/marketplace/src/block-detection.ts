export type BlockReason =
  | 'captcha'
  | 'challenge'
  | 'interstitial'
  | 'robot_check'
  | 'api_services_support'
  | 'rate_limited'
  | 'error_page'
  | 'service_unavailable';

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

const ROBOT_TITLE = /<title[^>]*>\s*Robot Check\s*<\/title>/i;
const NOT_A_ROBOT = /make sure you(?:'|’|&#39;|&rsquo;)re not a robot/i;
// The storefront's image captcha: the characters to type, the picture of them, or the prompt.
const CAPTCHA =
  /id=["']?captchacharacters|<img[^>]+src=["'][^"']*\/captcha\/|Enter the characters you see below|Geben Sie die angezeigten Zeichen|Saisissez les caractères|表示されている文字を入力/i;
// The same form without a picture: one button to "continue shopping", an interstitial.
const CAPTCHA_FORM = /\/errors(?:_page)?\/validateCaptcha/i;
// The automated-access notice. Its address also sits in a comment of every error and captcha page,
// so only the page's own text counts (comments are cut before this test).
const API_SERVICES = /api-services-support@amazon\.com|automated access to (?:this resource|amazon data) is not permitted/i;
// A JavaScript challenge a browser solves unattended before it gets the page: the AWS WAF's
// (`gokuProps` and its `challenge.js`), or a check page that only says so.
const CHALLENGE = /window\.gokuProps\s*=|\/challenge\.js["']|AwsWafIntegration\.(?:checkForceRefresh|saveReferrer)/;
// The WAF's own captcha (`captcha.js` into a captcha container) rather than the storefront's form.
const WAF_CAPTCHA = /\/captcha\.js["'][\s\S]*?captcha-container|captcha-container[\s\S]*?\/captcha\.js["']/;
// A bot manager's interstitial: the page reloads itself with a verification token, or posts one.
const INTERSTITIAL = /[?&]bm-verify=|\/_sec\/verify\?provider=interstitial|\/_sec\/cp_challenge\//;
// The dogs of Amazon also decorate the ordinary 404 page, so they are no marker on their own; the
// "something went wrong" title is, in each storefront's language.
const SORRY = /Sorry! Something went wrong|503 - Service Unavailable|<title[^>]*>[^<]*(?:Algo deu errado|Algo salió mal|Tut uns Leid!)/i;
// The throttling answer some edges give as plain text.
const THROTTLED = /Request was throttled/i;
// The page-metrics service name of the storefront's captcha pages: all a captcha page cut down to
// its head still says of itself.
const CAPTCHA_SERVICE = /\bue_sn\s*=\s*["']opfcaptcha\./;
const COMMENTS = /<!--[\s\S]*?(?:-->|$)/g;

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

  if (ROBOT_TITLE.test(head)) return { blocked: true, reason: 'robot_check' };
  if (wafAction === 'captcha' || CAPTCHA.test(head) || WAF_CAPTCHA.test(head)) return { blocked: true, reason: 'captcha' };
  if (wafAction === 'challenge' || CHALLENGE.test(head)) return { blocked: true, reason: 'challenge' };
  if (INTERSTITIAL.test(head) || CAPTCHA_FORM.test(head)) return { blocked: true, reason: 'interstitial' };
  if (NOT_A_ROBOT.test(head)) return { blocked: true, reason: 'robot_check' };
  if (CAPTCHA_SERVICE.test(head)) return { blocked: true, reason: 'captcha' };
  if (API_SERVICES.test(head.replace(COMMENTS, ''))) return { blocked: true, reason: 'api_services_support' };
  if (input.status === 429 || THROTTLED.test(head)) return { blocked: true, reason: 'rate_limited' };
  if (input.status === 503 || SORRY.test(head)) return { blocked: true, reason: 'service_unavailable' };
  return { blocked: false };
}
