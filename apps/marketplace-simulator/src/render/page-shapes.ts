import { createRng } from '../rng.ts';
import { denseCarousels, denseMenu, inlineStyle, inlineSvg, jsonState, loaderScript } from './dense-markup.ts';
import type { Filler } from './filler.ts';

/**
 * How the bulk of a full-size page is made, independently of the layout of its content:
 * - `scripted`: the classic filler, 72–82 % inline script/style (the default, as before);
 * - `serialized-dom`: a page saved from a browser's DOM: no script or style at all, dense markup
 *   (long class lists, `data-*` metrics attributes, inline SVG icons);
 * - `svg-heavy`: about a quarter script/style, large inline SVG sprites and icons in dense markup;
 * - `json-state`: about half the bytes in JSON state blobs (`<script type="application/json">`),
 *   the rest dense markup.
 * The last three follow what captured marketplace pages measure: 0–77 % script/style, 150–500
 * bytes per tag, thousands of attributes.
 */
export type PageShape = 'scripted' | 'serialized-dom' | 'svg-heavy' | 'json-state';
export const PAGE_SHAPES: readonly PageShape[] = ['scripted', 'serialized-dom', 'svg-heavy', 'json-state'];
/** The shapes modelled on captured pages (everything but the classic filler). */
export const REAL_PAGE_SHAPES: readonly PageShape[] = ['serialized-dom', 'svg-heavy', 'json-state'];

const cache = new Map<string, Filler>();

/** Filler for a shape other than `scripted`; `variant` scales the page (three sizes) deterministically. */
export function shapedFiller(shape: Exclude<PageShape, 'scripted'>, variant: number): Filler {
  const scale = 1 + (variant % 3) * 0.5;
  const key = `${shape}:${variant % 3}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const rng = createRng((variant % 3) + shape.length * 7919);
  let filler: Filler;
  if (shape === 'serialized-dom') {
    filler = {
      head: '',
      bodyStart: denseMenu(rng, Math.round(700 * scale)),
      bodyEnd: denseCarousels(rng, { bytes: 600_000 * scale, svgPoints: 6 }),
    };
  } else if (shape === 'svg-heavy') {
    const sprite = `<div id="a-svg-sprite" style="display:none" aria-hidden="true">${Array.from({ length: Math.round(60 * scale) }, () => inlineSvg(rng, 3, 40)).join('')}</div>`;
    filler = {
      head: `${inlineStyle(rng, 90_000 * scale)}\n${loaderScript(rng, 'dp', 110_000 * scale)}`,
      bodyStart: `${sprite}${denseMenu(rng, Math.round(300 * scale))}`,
      bodyEnd: `${denseCarousels(rng, { bytes: 350_000 * scale, svgPoints: 24 })}\n${loaderScript(rng, 'btf', 40_000 * scale)}`,
    };
  } else {
    filler = {
      head: `${inlineStyle(rng, 60_000 * scale)}\n${jsonState(rng, 'dp-state', 500_000 * scale)}`,
      bodyStart: denseMenu(rng, Math.round(500 * scale)),
      bodyEnd: `${denseCarousels(rng, { bytes: 450_000 * scale, svgPoints: 6 })}\n${jsonState(rng, 'sims-state', 350_000 * scale)}\n${loaderScript(rng, 'btf', 30_000 * scale)}`,
    };
  }
  cache.set(key, filler);
  return filler;
}
