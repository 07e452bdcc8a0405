import type { SearchItem } from '../search/types.ts';
import { cleanValue } from './validate-product.ts';

/** A search card's values checked as a product's are (see validateProduct); undefined when its title is none. */
export function validateSearchItem(item: SearchItem): SearchItem | undefined {
  const title = cleanValue(item.title);
  if (title === undefined) return undefined;
  item.title = title;
  const coupon = cleanValue(item.coupon);
  if (coupon !== undefined && /\d/.test(coupon)) item.coupon = coupon;
  else delete item.coupon;
  const delivery = cleanValue(item.delivery);
  if (delivery === undefined) delete item.delivery;
  else item.delivery = delivery;
  return item;
}
