import { describe, expect, it } from 'vitest';
import { findRegionStarts } from '../src/html/region-starts.ts';
import { parseProductPage } from '../src/index.ts';

const ANCHORS = { ids: new Set(['productTitle']), needles: [{ text: 'po-brand' }] };

describe('findRegionStarts', () => {
  it('finds elements by id in any quoting and by a substring of the start tag', () => {
    const html = `<div><span id="productTitle">a</span><b id='productTitle'>b</b><i id=productTitle>c</i><tr class="x po-brand"><td>d</td></tr></div>`;
    const starts = findRegionStarts(html, ANCHORS);
    expect(starts?.map((at) => html.slice(at, at + 3))).toEqual(['<sp', '<b ', '<i ', '<tr']);
  });

  it('ignores anchors in scripts, styles, comments, noscript, text and attribute lookalikes', () => {
    const html = `<script>x = '<span id="productTitle">'</script><style>.po-brand{}</style><!-- <p id="productTitle"> --><noscript><p id="productTitle"></p></noscript><p>id="productTitle" po-brand</p><p data-id="productTitle"></p>`;
    expect(findRegionStarts(html, ANCHORS)).toEqual([]);
  });

  it.each([
    ['mostly markup (the page is searched)', ''],
    ['mostly script (the markup is copied out and searched)', 'x'.repeat(2000)],
  ])('finds no anchor that only exists once a comment or script body is cut out, and finds the ones right beside them: %s', (_, padding) => {
    const html = `<p>po-<!-- x -->brand</p><b class="po-<!-- c -->brand"></b><div class="po-<script>x</script>brand"></div><script>${padding} id="productTitle" po-brand</script><i id="productTitle">t</i><!--z--><tr class="po-brand"></tr>`;
    expect(findRegionStarts(html, ANCHORS)?.map((at) => html.slice(at, at + 3))).toEqual(['<i ', '<tr']);
  });

  it('takes only ASCII whitespace after a tag name, as the tokenizer does (the same on text and on UTF-8 bytes)', () => {
    // `<script\u00a0>` is an element named "script\u00a0", not a script: what follows is markup.
    const html = `<script\u00a0><p id="productTitle">t</p>`;
    expect(findRegionStarts(html, ANCHORS)?.map((at) => html.slice(at, at + 2))).toEqual(['<p']);
    expect(parseProductPage(html, { origin: 'https://www.amazon.com' }).title).toBe('t');
  });

  it('gives up (whole-page scan) when a script opens a comment and then a script', () => {
    expect(findRegionStarts(`<script><!-- <script>x</script> --></script><p id="productTitle">t</p>`, ANCHORS)).toBeUndefined();
  });
});

describe('region scanning in the product parser', () => {
  const origin = 'https://www.amazon.com';

  it('reads a region that ends at an ancestor end tag, and not past it', () => {
    const html = `<div><span id="productTitle">Kettle</div><span id="title">Other</span>`;
    const page = parseProductPage(html, { origin, asin: 'B000000001' });
    expect(page.title).toBe('Kettle');
  });

  it('reads nested regions once, in document order', () => {
    const html = `<div id="feature-bullets"><ul><li>one</li><li><span id="productTitle">inside</span> two</li></ul></div><div id="feature-bullets"><ul><li>three</li></ul></div>`;
    const page = parseProductPage(html, { origin, asin: 'B000000001' });
    expect(page.features).toEqual(['one', 'inside two', 'three']);
    expect(page.title).toBe('inside');
  });

  it('reads the same page with its regions inside markup it never tokenizes', () => {
    const noise = `<div class="x" data-a='{"id":"productTitle"}'>${'<span class="n" data-x="1">n</span>'.repeat(2000)}</div>`;
    const html = `<html><head><link rel="canonical" href="https://www.amazon.com/dp/B0CANON001"></head><body>${noise}<h1 id="title"><span id="productTitle"> Desk Lamp </span></h1>${noise}<input type="hidden" id="ASIN" value="B0LAMP0001"></body></html>`;
    const page = parseProductPage(html, { origin });
    expect([page.asin, page.title]).toEqual(['B0LAMP0001', 'Desk Lamp']);
  });
});
