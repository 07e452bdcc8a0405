import { hasClass, normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';

const AVAILABILITY_IDS: ReadonlySet<string> = new Set(['availability', 'outOfStock']);

/** The availability message: the first non-empty span of the first availability block, else its whole text. */
export class AvailabilityRegion implements IdRegion {
  readonly ids: readonly string[] = [...AVAILABILITY_IDS];
  private parts: string[] | undefined;
  private firstSpan: string | undefined;
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    const { stack, captures, found } = this.scan;
    if (!AVAILABILITY_IDS.has(id) || found.availability !== undefined || this.parts !== undefined) return;
    const parts = captures.begin();
    this.parts = parts;
    stack.onClose(() => {
      const whole = normalizeSpace(captures.end(parts));
      this.parts = undefined;
      found.availability ??= this.firstSpan ?? (whole === '' ? undefined : whole);
    });
  }

  spanTag(cls: string | undefined): void {
    // Pages before 2014: the message is a `span.availGreen` (or `availRed`) without an id around it.
    if (this.parts === undefined && hasClass(cls, 'availGreen')) {
      const found = this.scan.found;
      this.scan.capture((text) => (found.availability ??= normalizeSpace(text) || undefined));
      return;
    }
    if (this.parts === undefined || this.firstSpan !== undefined) return;
    this.scan.capture((text) => {
      const value = normalizeSpace(text);
      if (value !== '') this.firstSpan ??= value;
    });
  }
}
