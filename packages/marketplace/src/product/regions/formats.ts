import { hasClass, normalizeSpace } from '../../html/tags.ts';
import { ContainerRegion, type PageScan } from '../page-scan.ts';

/**
 * The format picker of books and media (`#tmmSwatches`): one swatch per format (Kindle, Paperback,
 * Audiobook) with its price, the shown one selected. Both the list (`li.swatchElement`, name in the
 * first plain span) and the grid (`div.swatchElement`, `span.slot-title`/`span.slot-price`) markups.
 * Also the subtitle under the title (`Kindle Edition`, `Paperback – June 5, 2018`).
 */
export class FormatsRegion extends ContainerRegion {
  private swatch: { name: string | undefined; naming: boolean; price: string | undefined; pricing: boolean; selected: boolean } | undefined;

  constructor(scan: PageScan) {
    super(scan, ['tmmSwatches', 'productSubtitle', 'productBinding']);
  }

  override onId(id: string): void {
    if (id === 'tmmSwatches') {
      super.onId();
      return;
    }
    this.scan.capture((text) => {
      const value = normalizeSpace(text);
      if (value !== '') this.scan.found.subtitle ??= value;
    });
  }

  startTag(name: string, cls: string | undefined): void {
    if (this.depth === 0) return;
    if ((name === 'li' || name === 'div') && hasClass(cls, 'swatchElement') && this.swatch === undefined) {
      const started = {
        name: undefined as string | undefined,
        naming: false,
        price: undefined as string | undefined,
        pricing: false,
        selected: hasClass(cls, 'selected'),
      };
      this.swatch = started;
      this.scan.stack.onClose(() => {
        this.swatch = undefined;
        if (started.name) {
          const format: { name: string; price?: string; selected: boolean } = { name: started.name, selected: started.selected };
          if (started.price) format.price = started.price;
          this.scan.found.formats.push(format);
        }
      });
      return;
    }
    const swatch = this.swatch;
    if (swatch === undefined) return;
    if (hasClass(cls, 'a-button-selected')) swatch.selected = true;
    if (name !== 'span') return;
    if (!swatch.pricing && (hasClass(cls, 'a-color-price') || hasClass(cls, 'slot-price'))) {
      swatch.pricing = true;
      this.scan.capture((text) => (swatch.price = normalizeSpace(text) || undefined));
    } else if (!swatch.naming && (hasClass(cls, 'slot-title') || cls === undefined)) {
      swatch.naming = true;
      this.scan.capture((text) => (swatch.name = normalizeSpace(text) || undefined));
    }
  }
}
