import type { MarketplaceDomain } from '@crawl/marketplace';
import { esc } from './html.ts';

// Block and error pages are small on the real site too, so they carry no filler.

const API_NOTICE = `<!--
        To discuss automated access to Amazon data please contact api-services-support@amazon.com.
        For information about migrating to our APIs refer to our Marketplace APIs at https://developer.amazonservices.com/ref=rm_c_sv, or our Product Advertising API at https://affiliate-program.amazon.com/gp/advertising/api/detail/main.html/ref=rm_c_ac for advertising use cases.
-->`;

function captchaForm(returnPath: string, robot: boolean): string {
  return `<div class="a-box a-alert a-alert-info a-spacing-base"><div class="a-box-inner"><i class="a-icon a-icon-alert"></i><h4>Enter the characters you see below</h4>
<p class="a-last">${robot ? "Sorry, we just need to make sure you're not a robot." : 'Sorry, we just need to make sure you are a human.'} For best results, please make sure your browser is accepting cookies.</p></div></div>
<div class="a-section"><div class="a-box a-color-offset-background"><div class="a-box-inner a-padding-extra-large"><form method="get" action="/errors/validateCaptcha" name="">
<input type=hidden name="amzn" value="c2ltdWxhdGVk" /><input type=hidden name="amzn-r" value="${esc(returnPath)}" />
<h4>Type the characters you see in this image:</h4><div class="a-row a-text-center"><img src="https://images-na.ssl-images-amazon.com/captcha/simulated/Captcha_simulated.jpg"></div>
<input autocomplete="off" spellcheck="false" placeholder="Type characters" id="captchacharacters" name="field-keywords" type="text">
<button type="submit" class="a-button-text">Continue shopping</button></form></div></div></div>`;
}

/** The captcha interstitial the real site serves with HTTP 200 (or 503). */
export function captchaPage(domain: MarketplaceDomain, returnPath: string): string {
  return `<!doctype html><html lang="en" class="a-no-js"><head><meta charset="utf-8"><title dir="ltr">Amazon.${esc(domain.slice('amazon.'.length))}</title>
<script>var ue_sn = "opfcaptcha.${esc(domain)}";</script></head><body>${API_NOTICE}
<div class="a-container a-padding-double-large"><div class="a-row a-spacing-double-large" style="width: 350px; margin: 0 auto">${captchaForm(returnPath, false)}</div></div></body></html>`;
}

/** The older "Robot Check" page. */
export function robotCheckPage(returnPath: string): string {
  return `<!DOCTYPE html><html class="a-no-js" lang="en-us"><head><meta charset="utf-8"><title dir="ltr">Robot Check</title></head><body>
<div class="a-container a-padding-double-large"><div class="a-row a-spacing-double-large" style="width: 350px; margin: 0 auto">${captchaForm(returnPath, true)}</div></div></body></html>`;
}

/** The bare automated-access notice (no captcha form). */
export function apiServicesPage(): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Amazon.com</title></head><body>${API_NOTICE}
<center><p align="center"><font color="#CC6600" size="3" face="Verdana,Arial,Helvetica">Automated access to this resource is not permitted.</font></p></center></body></html>`;
}

/** The 503 "dogs of Amazon" page. */
export function serviceUnavailablePage(): string {
  return `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title>Sorry! Something went wrong!</title></head><body>
<div id="a"><a href="/ref=cs_503_logo"><img id="b" src="https://images-na.ssl-images-amazon.com/images/G/01/error/logo._TTD_.png" alt="Amazon.com"></a></div>
<div id="g"><div><a href="/ref=cs_503_link">Sorry! Something went wrong on our end. Please go back and try again or go to Amazon's home page.</a></div>
<a href="/dogsofamazon/ref=cs_503_d"><img src="https://images-na.ssl-images-amazon.com/images/G/01/error/500_503.png" alt="Dogs of Amazon"></a></div></body></html>`;
}

/** The 429 body; the real site sends the same small error document. */
export function rateLimitedPage(): string {
  return `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title>Too Many Requests</title></head><body><p>Request was throttled. Please wait a moment and refresh the page.</p></body></html>`;
}

/** The 404 page for unknown products and paths. */
export function notFoundPage(): string {
  return `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title>Page Not Found</title></head><body>
<div id="a"><a href="/ref=cs_404_logo"><img src="https://images-na.ssl-images-amazon.com/images/G/01/error/logo._TTD_.png" alt="Amazon.com"></a></div>
<div id="g"><div><a href="/ref=cs_404_link"><img src="https://images-na.ssl-images-amazon.com/images/G/01/error/title._TTD_.png" alt="Sorry! We couldn't find that page. Try searching or go to Amazon's home page."></a></div>
<a href="/dogsofamazon/ref=cs_404_d"><img src="https://images-na.ssl-images-amazon.com/images/G/01/error/103._TTD_.jpg" alt="Dogs of Amazon"></a></div></body></html>`;
}
