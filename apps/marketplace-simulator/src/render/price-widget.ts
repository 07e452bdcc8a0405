import type { MarketplaceDomain } from '@crawl/marketplace';
import { formatMoney, type Money } from '../money.ts';
import { esc } from './html.ts';

export interface PriceWidgetOptions {
  /** Extra classes on span.a-price (`priceToPay`, `a-text-price`). */
  classes?: string;
  size?: string;
  strike?: boolean;
  /** The grid layout omits the screen-reader copy and shows only the parts. */
  offscreen?: boolean;
  /** Struck and secondary prices show one plain text copy instead of the parts. */
  plain?: boolean;
}

/** The `span.a-price` widget, in the storefront's own money format. */
export function priceWidget(money: Money, domain: MarketplaceDomain, options: PriceWidgetOptions = {}): string {
  const parts = formatMoney(money, domain);
  const classes = ['a-price', options.classes].filter(Boolean).join(' ');
  const attrs = `data-a-size="${options.size ?? 'xl'}"${options.strike ? ' data-a-strike="true"' : ''} data-a-color="${options.strike ? 'secondary' : 'base'}"`;
  const offscreen = options.offscreen === false ? '' : `<span class="a-offscreen">${esc(parts.text)}</span>`;
  if (options.plain) return `<span class="${classes}" ${attrs}>${offscreen}<span aria-hidden="true">${esc(parts.text)}</span></span>`;
  const symbol = `<span class="a-price-symbol">${esc(parts.symbol)}</span>`;
  const decimal = parts.fraction === '' ? '' : `<span class="a-price-decimal">${esc(parts.decimal)}</span>`;
  const whole = `<span class="a-price-whole">${esc(parts.whole)}${decimal}</span>`;
  const fraction = parts.fraction === '' ? '' : `<span class="a-price-fraction">${parts.fraction}</span>`;
  const visible = parts.symbolFirst ? `${symbol}${whole}${fraction}` : `${whole}${fraction}${symbol}`;
  return `<span class="${classes}" ${attrs}>${offscreen}<span aria-hidden="true">${visible}</span></span>`;
}
