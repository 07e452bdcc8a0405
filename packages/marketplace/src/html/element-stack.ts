type Closer = (() => void) | undefined;

export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

// Start tags that end an open <p>, per the HTML tree builder (only the ones pages actually use).
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'div',
  'dl',
  'fieldset',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'section',
  'table',
  'ul',
]);

// HTML "special" elements (the ones pages use): an end tag of an ordinary element such as </span>
// never closes past one of these — the tree builder ignores it instead.
const SPECIAL = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'button',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'html',
  'iframe',
  'li',
  'main',
  'menu',
  'nav',
  'noscript',
  'ol',
  'p',
  'pre',
  'section',
  'select',
  'summary',
  'table',
  'tbody',
  'td',
  'template',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** An element whose end tag ordinary end tags never close past (see `close`). */
export function isSpecialElement(tag: string): boolean {
  return SPECIAL.has(tag);
}

// Formatting elements are re-parented by the adoption agency algorithm rather than ignored; closing
// them up to the nearest match is the close-enough approximation for extraction purposes.
const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);

// Elements whose content is never text of the page: raw text (script, style, noscript and the like)
// and inert templates.
const TEXTLESS = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'iframe', 'xmp', 'noembed', 'noframes']);

/**
 * The open-element stack a tree builder would keep, minus the tree: enough to know when an element
 * of interest ends. Each open element can carry a callback run when it closes — explicitly, by an
 * ancestor's end tag, by an implied end (a new <li> ends the previous one), or at end of input.
 */
export class ElementStack {
  private readonly tags: string[] = [];
  private readonly closers: Closer[] = [];
  /** Index of the outermost open element whose content is hidden, or -1. */
  private hiddenFrom = -1;

  get depth(): number {
    return this.tags.length;
  }

  /**
   * True inside an element whose content a reader never sees as text of the page: script, style,
   * noscript, template and the other raw-text elements, or one marked with `hideTop` (a popover's
   * preloaded content). Handlers take no text and no element from there.
   */
  get hidden(): boolean {
    return this.hiddenFrom !== -1;
  }

  /** The element opened last (undefined when none is open). */
  get current(): string | undefined {
    return this.tags[this.tags.length - 1];
  }

  /** Hides the element opened last, with everything inside it, until it closes. */
  hideTop(): void {
    if (this.hiddenFrom === -1 && this.tags.length > 0) this.hiddenFrom = this.tags.length - 1;
  }

  /** Opens `tag` (void elements are never pushed) after closing what its start implicitly ends. */
  open(tag: string): void {
    if (tag === 'li') this.closeImplied('li', 'ul', 'ol', 'table', 'td', 'th', 'menu');
    else if (tag === 'td' || tag === 'th') this.closeImplied2('td', 'th', 'tr');
    else if (tag === 'tr') this.closeImplied('tr', 'table', 'tbody');
    else if (tag === 'dt' || tag === 'dd') this.closeImplied2('dt', 'dd', 'dl');
    else if (tag === 'option') this.closeImplied('option', 'select', 'datalist');
    if (CLOSES_P.has(tag) && this.tags[this.tags.length - 1] === 'p') this.popTo(this.tags.length - 1);
    if (VOID_ELEMENTS.has(tag)) return;
    this.tags.push(tag);
    this.closers.push(undefined);
    if (TEXTLESS.has(tag)) this.hideTop();
  }

  /** Registers `fn` to run when the element opened last closes. */
  onClose(fn: () => void): void {
    const top = this.closers.length - 1;
    if (top < 0) return;
    const previous = this.closers[top];
    this.closers[top] = previous
      ? () => {
          previous();
          fn();
        }
      : fn;
  }

  /**
   * Handles an end tag: closes the nearest open element named `tag`. Strays are ignored, and so is
   * the end tag of an ordinary element when a special one (a <div>) is open inside it. Returns
   * whether an element was closed.
   */
  close(tag: string): boolean {
    const guarded = !SPECIAL.has(tag) && !FORMATTING.has(tag);
    for (let i = this.tags.length - 1; i >= 0; i--) {
      const open = this.tags[i] as string;
      if (open === tag) {
        this.popTo(i);
        return true;
      }
      if (guarded && SPECIAL.has(open)) return false;
    }
    return false;
  }

  closeAll(): void {
    this.popTo(0);
  }

  private closeImplied(tag: string, ...scopes: string[]): void {
    for (let i = this.tags.length - 1; i >= 0; i--) {
      const open = this.tags[i] as string;
      if (open === tag) return this.popTo(i);
      if (scopes.includes(open)) return;
    }
  }

  private closeImplied2(a: string, b: string, scope: string): void {
    for (let i = this.tags.length - 1; i >= 0; i--) {
      const open = this.tags[i] as string;
      if (open === a || open === b) return this.popTo(i);
      if (open === scope || open === 'table') return;
    }
  }

  /** Pops elements down to (and including) index `i`, innermost first. */
  private popTo(i: number): void {
    if (this.hiddenFrom >= i) this.hiddenFrom = -1;
    while (this.tags.length > i) {
      this.tags.pop();
      const closer = this.closers.pop();
      if (closer) closer();
    }
  }
}
