import { hasClass } from './tags.ts';

/**
 * Elements of the storefront's interface whose text is never a value: a popover's preloaded
 * content (an author's "Discover … on Amazon" card) and an expander's own prompt ("Read more").
 * The parsers hide them, with everything inside, like script and style.
 */
export function isChrome(cls: string | undefined): boolean {
  return cls !== undefined && (hasClass(cls, 'a-popover-preload') || hasClass(cls, 'a-expander-prompt') || hasClass(cls, 'a-link-expander'));
}
