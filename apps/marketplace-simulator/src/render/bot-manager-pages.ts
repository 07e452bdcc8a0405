import { createRng, hashString } from '../rng.ts';
import { esc } from './html.ts';

// Pages a bot manager or web application firewall in front of the storefront answers with instead
// of the page asked for. Our own minimal markup, carrying the traits such pages are recognised by:
// what they load, what they post, the containers their scripts fill.

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** An opaque token of `length` characters, the same for the same `seed` (a request's URL and attempt). */
export function simulatedToken(seed: string, length: number): string {
  const rng = createRng(hashString(seed));
  return Array.from({ length }, () => TOKEN_CHARS[rng.int(0, TOKEN_CHARS.length - 1)]).join('');
}

/** `path` with `name=value` added to its query. */
function withParam(path: string, name: string, value: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
}

/**
 * The bot manager's interstitial, served with HTTP 200: a script posts a computed number to the
 * verifier while a meta refresh brings the browser back to the page it asked for, with the
 * verification token (`bm-verify`) in its query. A hidden overlay holds the verification frame.
 */
export function interstitialPage(requestPath: string, tokenSeed: string): string {
  const token = simulatedToken(`interstitial:${tokenSeed}`, 88);
  const rng = createRng(hashString(tokenSeed, 7));
  const base = rng.int(100_000_000, 999_999_999);
  const [head, tail] = [rng.int(1000, 9999), rng.int(10_000, 99_999)];
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="5; URL='${esc(withParam(requestPath, 'bm-verify', token))}'">
<title>&nbsp;</title><style>#sec-overlay{position:fixed;inset:0;background:#fff}#sec-frame{width:100%;height:100%;border:0}</style></head>
<body><div id="sec-overlay" style="display:none"><iframe id="sec-frame" title="Verifying your browser" src="about:blank"></iframe></div>
<script>
(function () {
  var i = ${base};
  var pow = i + Number("${head}" + "${tail}");
  var xhr = new XMLHttpRequest();
  xhr.open("POST", "/_sec/verify?provider=interstitial", true);
  xhr.setRequestHeader("Content-Type", "application/json");
  xhr.onload = function () {
    if (xhr.status === 200 && JSON.parse(xhr.responseText).reload) window.location.replace(window.location.href);
  };
  xhr.send(JSON.stringify({ "bm-verify": "${token}", "pow": pow }));
})();
</script></body></html>`;
}

/** The WAF's settings for its script: key, iv and context, opaque base64 strings. */
function wafProps(tokenSeed: string): string {
  return JSON.stringify({
    key: simulatedToken(`key:${tokenSeed}`, 108),
    iv: simulatedToken(`iv:${tokenSeed}`, 32),
    context: simulatedToken(`context:${tokenSeed}`, 160),
  });
}

/** The WAF's token host: an id per protected site (the storefront), a region, the script under the id's paths. */
function wafScript(site: string, script: 'challenge.js' | 'captcha.js'): string {
  const id = hashString(site, 11).toString(16).padStart(8, '0');
  const app = hashString(site, 13).toString(16).padStart(8, '0');
  return `https://${id}.us-east-1.token.awswaf.com/${id}/${app}/${script}`;
}

function wafPage(site: string, tokenSeed: string, body: string, script: 'challenge.js' | 'captcha.js'): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title></title>
<script>window.awsWafCookieDomainList = [];
window.gokuProps = ${wafProps(tokenSeed)};</script>
<script src="${esc(wafScript(site, script))}"></script></head>
<body>${body}
<noscript><h1>Please turn on JavaScript</h1><p>This page needs JavaScript to check your browser. Turn it on and load the page again.</p></noscript></body></html>`;
}

/**
 * The WAF's JavaScript challenge (HTTP 202 with `x-amzn-waf-action: challenge`, or passed on as a
 * plain 200): the challenge script gets a token for the site's cookie and the page reloads itself.
 */
export function wafChallengePage(site: string, tokenSeed: string): string {
  return wafPage(
    site,
    tokenSeed,
    `<div id="challenge-container"></div>
<script>
AwsWafIntegration.checkForceRefresh().then(function (force) {
  return force ? AwsWafIntegration.forceRefreshToken() : AwsWafIntegration.getToken();
}).then(function () { window.location.reload(true); });
</script>`,
    'challenge.js',
  );
}

/** The WAF's captcha (HTTP 405 with `x-amzn-waf-action: captcha`): a puzzle rendered into its container. */
export function wafCaptchaPage(site: string, tokenSeed: string): string {
  return wafPage(
    site,
    tokenSeed,
    `<div id="captcha-container"></div>
<script>
window.addEventListener("load", function () {
  AwsWafCaptcha.renderCaptcha(document.getElementById("captcha-container"), {
    onSuccess: function () { window.location.reload(true); },
    dynamicWidth: true
  });
});
</script>`,
    'captcha.js',
  );
}
