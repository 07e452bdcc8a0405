import type { StartTag } from 'parse5-sax-parser';
import { textOfMarkup } from '../../html/markup-text.ts';
import { attr, normalizeSpace } from '../../html/tags.ts';
import { ASIN } from '../findings.ts';
import { lines, type IdRegion, type PageScan } from '../page-scan.ts';

const READ_MORE = /\n?(?:Read more|Read less|Weiterlesen|Mehr lesen|Weniger lesen|En lire plus|Lire la suite|Leer más|Leggi di più|Meer lezen|もっと読む)\s*$/i;

/** What the page is: its ASIN (hidden input, canonical link), title and description. */
export class IdentityRegion implements IdRegion {
  readonly ids: readonly string[] = ['productTitle', 'title', 'productDescription', 'bookDescription_feature_div'];
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    const found = this.scan.found;
    if (id === 'productTitle') {
      if (found.title === undefined) this.scan.capture((text) => (found.title = normalizeSpace(text)));
    } else if (id === 'title') {
      this.scan.capture((text) => (found.fallbackTitle ??= normalizeSpace(text)));
    } else if (id === 'productDescription') {
      this.scan.capture((text) => (found.description ??= lines(text) || undefined));
    } else if (id === 'bookDescription_feature_div') {
      // The expander's own "Read more" prompt is no part of the text.
      this.scan.captureWithNoscript((text, noscript) => {
        found.description ??= lines(text).replace(READ_MORE, '') || lines(textOfMarkup(noscript)) || undefined;
      });
    }
  }

  voidTag(tag: StartTag, name: string, id: string | undefined): void {
    const found = this.scan.found;
    if (name === 'input' && (id === 'ASIN' || id === 'parentASIN')) {
      const value = attr(tag, 'value')?.toUpperCase();
      if (!value || !ASIN.test(value)) return;
      if (id === 'ASIN') found.pageAsin ??= value;
      else found.parentAsin ??= value;
    } else if (name === 'link' && attr(tag, 'rel') === 'canonical') {
      found.canonicalAsin ??= /\/dp\/([A-Z0-9]{10})/.exec(attr(tag, 'href') ?? '')?.[1];
    }
  }
}
