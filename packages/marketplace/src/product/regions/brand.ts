import { hasClass, normalizeSpace } from '../../html/tags.ts';
import type { Depth, IdRegion, PageScan } from '../page-scan.ts';
import type { Contributor } from '../types.ts';

/**
 * The brand: the "Brand" row of the product overview table, else (at assembly) the byline. A book's
 * byline lists contributors instead (`span.author`: a name link and a `(Author)` contribution).
 */
export class BrandRegion implements IdRegion {
  readonly ids: readonly string[] = ['bylineInfo'];
  /** Inside a `tr.po-brand` row. */
  depth = 0;
  /** Inside `#bylineInfo`. */
  readonly byline: Depth = { depth: 0 };
  private author: Contributor | undefined;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    if (id !== 'bylineInfo' || this.scan.found.byline !== undefined) return;
    this.scan.enter(this.byline);
    this.scan.capture((text) => (this.scan.found.byline ??= normalizeSpace(text)));
  }

  startTag(name: string, cls: string | undefined): void {
    if (name === 'tr' && hasClass(cls, 'po-brand')) this.scan.enter(this);
    else if (this.depth > 0 && name === 'td' && hasClass(cls, 'a-span9')) {
      this.scan.capture((text) => (this.scan.found.poBrand ??= normalizeSpace(text) || undefined));
    }
  }

  /** A tag inside the byline. */
  bylineTag(name: string, cls: string | undefined): void {
    if (name === 'span' && hasClass(cls, 'author') && this.author === undefined) {
      const started: Contributor = { name: '' };
      this.author = started;
      this.scan.stack.onClose(() => {
        this.author = undefined;
        if (started.name !== '') this.scan.found.authors.push(started);
      });
      return;
    }
    const author = this.author;
    if (author === undefined) return;
    if (name === 'a' && author.name === '') {
      this.scan.capture((text) => (author.name ||= normalizeSpace(text)));
    } else if (name === 'span' && hasClass(cls, 'contribution') && author.role === undefined) {
      this.scan.capture((text) => {
        const role = normalizeSpace(text).replace(/[(),]/g, ' ').replace(/\s+/g, ' ').trim();
        if (role !== '') author.role = role;
      });
    }
  }
}
