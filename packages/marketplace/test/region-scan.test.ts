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
