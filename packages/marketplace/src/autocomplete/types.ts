export interface Suggestion {
  /** 1-based place in the list, as the storefront orders it. */
  position: number;
  /** The suggested search. */
  value: string;
  /** The storefront's kind of suggestion (`KEYWORD`, `WIDGET`, …), when it names one. */
  type?: string;
}

export interface SuggestionsPage {
  suggestions: Suggestion[];
  /**
   * The answer is a suggestions document for the prefix asked: JSON with a `suggestions` list
   * whose `prefix` is the one asked (compared without case and surrounding space). An HTML page (a
   * captcha, a sign-in page), other JSON or the suggestions for another prefix are not.
   */
  recognized: boolean;
}

export interface ParseSuggestionsOptions {
  /** The prefix asked for. */
  prefix: string;
}
