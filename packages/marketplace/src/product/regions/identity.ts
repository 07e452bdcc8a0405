import type { StartTag } from 'parse5-sax-parser';
import { EXPANDER_PROMPT } from '../../fields/interface-phrases.ts';
import { textOfMarkup } from '../../html/markup-text.ts';
import { attr, hasClass, normalizeSpace } from '../../html/tags.ts';
import { ASIN } from '../findings.ts';
import { lines, type IdRegion, type PageScan } from '../page-scan.ts';

/** What the page is: its ASIN (hidden input, canonical link), title and description. */
export class IdentityRegion implements IdRegion {
  readonly ids: readonly string[] = [
    'productTitle',
    'ebooksProductTitle',
    'btAsinTitle',
    'title',
    'title_feature_div',
    'productDescription',
    'bookDescription_feature_div',
  ];
  /** Inside the title heading (`h1#title`): a book's format is named there beside its title. */
  readonly heading = { depth: 0 };
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string, tag: StartTag): void {
    const found = this.scan.found;
    // The title's widget names the product it shows (`data-csa-c-asin`): the page's own ASIN where a
    // saved page lost the hidden input and the canonical link.
    if (id === 'title_feature_div') {
      const asin = attr(tag, 'data-csa-c-asin')?.toUpperCase();
      if (asin !== undefined && ASIN.test(asin)) found.widgetAsin ??= asin;
      return;
    }
    // Digital editions name the title in `ebooksProductTitle`, beside the format inside `#title`;
    // pages before 2014 in `btAsinTitle`.
    if (id === 'productTitle' || id === 'ebooksProductTitle' || id === 'btAsinTitle') {
      if (found.title === undefined) this.scan.capture((text) => (found.title = normalizeSpace(text)));
    } else if (id === 'title') {
      this.scan.enter(this.heading);
      this.scan.capture((text) => (found.fallbackTitle ??= normalizeSpace(text)));
    } else if (id === 'productDescription') {
      this.scan.capture((text) => (found.description ??= withoutPrompts(text) || undefined));
    } else if (id === 'bookDescription_feature_div') {
      this.scan.captureWithNoscript((text, noscript) => {
        found.description ??= withoutPrompts(text) || withoutPrompts(textOfMarkup(noscript)) || undefined;
      });
    }
  }

  /** A span inside the title heading: the first secondary one beside the title names a book's format (`Paperback`). */
  headingSpan(cls: string | undefined): void {
    const found = this.scan.found;
    if (found.title === undefined || found.headingFormat !== undefined || !hasClass(cls, 'a-color-secondary')) return;
    this.scan.capture((text) => (found.headingFormat ??= normalizeSpace(text) || undefined));
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

/** The text's lines without the expander's own prompts ("Read more", "Weniger lesen"): no part of the text. */
function withoutPrompts(text: string): string {
  return lines(text)
    .split('\n')
    .filter((line) => !EXPANDER_PROMPT.test(line))
    .join('\n');
}
