import { describe, expect, it } from 'vitest';
import { detectBlock } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('detectBlock', () => {
  it.each([
    ['block-captcha-200.html', 200, 'captcha'],
    ['block-captcha-200.html', 503, 'captcha'],
    ['block-robot-check.html', 200, 'robot_check'],
    ['block-api-services.html', 200, 'api_services_support'],
    ['block-api-services.html', 503, 'api_services_support'],
    ['block-503-sorry.html', 503, 'service_unavailable'],
    ['block-503-sorry.html', 200, 'service_unavailable'],
  ])('%s with HTTP %d is %s', (name, status, reason) => {
    expect(detectBlock({ status, html: fixture(name) })).toEqual({ blocked: true, reason });
  });

  it.each([
    'search-no-results.html',
    'search-classic-us.html',
    'search-grid-de.html',
    'search-legacy-uk.html',
    'product-desktop-us.html',
    'product-apex-de.html',
    'product-mobile-jp.html',
    'product-no-price.html',
  ])('does not flag the regular page %s', (name) => {
    expect(detectBlock({ status: 200, html: fixture(name) })).toEqual({ blocked: false });
  });

  it('reports 429 as rate limited and a bare 503 as unavailable', () => {
    expect(detectBlock({ status: 429, html: '' })).toEqual({ blocked: true, reason: 'rate_limited' });
    expect(detectBlock({ status: 503, html: '<html></html>' })).toEqual({ blocked: true, reason: 'service_unavailable' });
  });

  it('does not mistake the 404 page, dogs and all, for an outage', () => {
    const html = `<html><head><title>Page Not Found</title></head><body><p>Sorry! We couldn't find that page.</p>
      <a href="/dogsofamazon"><img src="https://images-na.ssl-images-amazon.com/images/G/01/error/title._TTD_.png" alt="Dogs of Amazon"></a></body></html>`;
    expect(detectBlock({ status: 404, html })).toEqual({ blocked: false });
  });

  it('honours the WAF challenge header', () => {
    const html = fixture('search-no-results.html');
    expect(detectBlock({ status: 202, html, headers: { 'X-Amzn-Waf-Action': 'captcha' } })).toEqual({ blocked: true, reason: 'captcha' });
    expect(detectBlock({ status: 200, html, headers: { 'x-amzn-waf-action': ['challenge'] } })).toEqual({ blocked: true, reason: 'challenge' });
    expect(detectBlock({ status: 200, html, headers: { 'content-type': 'text/html' } })).toEqual({ blocked: false });
  });

  it('ignores marker-like text deep inside a large legitimate page', () => {
    const filler = `<script>${'var x = 1;'.repeat(20_000)}</script>`;
    const html = `<html><head><title>Amazon.com : laptop</title>${filler}</head><body><!-- validateCaptcha api-services-support@amazon.com --></body></html>`;
    expect(detectBlock({ status: 200, html })).toEqual({ blocked: false });
  });

  // Every error and captcha page carries the automated-access address in a comment.
  const NOTICE = '<!-- To discuss automated access to Amazon data please contact api-services-support@amazon.com. -->';

  it('takes the automated-access address in a comment for no notice: a 404 page stays a 404', () => {
    const html = `<html><head><title>Page Not Found</title></head><body>${NOTICE}<p>Looking for something?</p></body></html>`;
    expect(detectBlock({ status: 404, html })).toEqual({ blocked: false });
    expect(detectBlock({ status: 200, html: `<html><body>${NOTICE}<p>Automated access to this resource is not permitted.</p></body></html>` })).toEqual({
      blocked: true,
      reason: 'api_services_support',
    });
  });

  it('tells the image captcha from the one-button "continue shopping" interstitial', () => {
    const form = (inside: string, action = '/errors/validateCaptcha') =>
      `<html><head><title>Amazon.com</title></head><body>${NOTICE}<h4>Sorry, we just need to make sure you're not a robot.</h4><form method="get" action="${action}"><input type="hidden" name="amzn" value="x">${inside}</form></body></html>`;
    expect(
      detectBlock({ status: 200, html: form('<img src="https://images-na.ssl-images-amazon.com/captcha/abc/Captcha_x.jpg"><input id="captchacharacters">') }),
    ).toEqual({
      blocked: true,
      reason: 'captcha',
    });
    expect(detectBlock({ status: 200, html: form('<button type="submit">Continue shopping</button>', '/errors_page/validateCaptcha') })).toEqual({
      blocked: true,
      reason: 'interstitial',
    });
  });

  it('knows the WAF challenge, the WAF captcha and the bot-manager interstitial by their pages alone', () => {
    const challenge =
      '<html><head><script>window.gokuProps = {"key":"a","iv":"b","context":"c"};</script><script src="https://x.token.awswaf.com/x/y/challenge.js"></script></head><body><div id="challenge-container"></div></body></html>';
    const wafCaptcha =
      '<html><head><script src="https://x.token.awswaf.com/x/y/captcha.js"></script></head><body><div id="captcha-container"></div></body></html>';
    const interstitial = `<html><head><meta http-equiv="refresh" content="5; URL='/s?k=lamp&bm-verify=AAQAAAAJ'"></head><body><script>xhr.open("POST", "/_sec/verify?provider=interstitial", false);</script></body></html>`;
    expect(detectBlock({ status: 200, html: challenge })).toEqual({ blocked: true, reason: 'challenge' });
    expect(detectBlock({ status: 405, html: wafCaptcha })).toEqual({ blocked: true, reason: 'captcha' });
    expect(detectBlock({ status: 200, html: interstitial })).toEqual({ blocked: true, reason: 'interstitial' });
  });

  it('knows a captcha page cut down to its head, the throttling text and "something went wrong" in other languages', () => {
    const head = `<html lang="en-us"><head><title>Amazon.com</title><script>var ue_t0 = 1, ue_mid = "ATVPDKIKX0DER", ue_sn = "opfcaptcha.amazon.com";</script></head></html>`;
    expect(detectBlock({ status: 200, html: head })).toEqual({ blocked: true, reason: 'captcha' });
    expect(detectBlock({ status: 200, html: '<html><body><p>Request was throttled. Please wait a moment and refresh the page</p></body></html>' })).toEqual({
      blocked: true,
      reason: 'rate_limited',
    });
    expect(detectBlock({ status: 500, html: '<html><head><title>Amazon.com.br Algo deu errado</title></head><body></body></html>' })).toEqual({
      blocked: true,
      reason: 'service_unavailable',
    });
  });
});
