import type { ProductDetails } from '../../packages/marketplace/src/index.ts';
import type { ExpectedProduct } from './page-case.ts';

export interface FieldCheck {
  field: string;
  expected: unknown;
  actual: unknown;
  right: boolean;
}

/** Collapsed spacing: how a reader compares two texts (an invisible character left in a value counts). */
export const plain = (text: string): string => text.replace(/\s+/g, ' ').trim();
const same = (a: string | undefined, b: string): boolean => a !== undefined && plain(a).toLowerCase() === plain(b).toLowerCase();
const startsWith = (a: string | undefined, b: string): boolean => a !== undefined && plain(a).toLowerCase().startsWith(plain(b).toLowerCase());
const money = (price: { amount: number; currency: string } | undefined) => (price === undefined ? null : { amount: price.amount, currency: price.currency });
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const sorted = (values: readonly string[]): string[] => [...values].map(plain).sort();

/** Each expected field against the record: null expects nothing read, a value the same value. */
export function compareProduct(expected: ExpectedProduct, product: ProductDetails): FieldCheck[] {
  const rows: FieldCheck[] = [];
  const row = (field: string, want: unknown, actual: unknown, right: boolean) => rows.push({ field, expected: want, actual, right });
  const text = (field: keyof ProductDetails, want: string | null | undefined, match: (a: string | undefined, b: string) => boolean = same) => {
    if (want === undefined) return;
    const actual = product[field] as string | undefined;
    row(field, want, actual, want === null ? actual === undefined : match(actual, want));
  };
  const value = <T>(field: string, want: T | null | undefined, actual: T | undefined) => {
    if (want === undefined) return;
    row(field, want, actual, want === null ? actual === undefined : sameJson(actual, want));
  };

  if (expected.asin !== undefined) row('asin', expected.asin, product.asin, product.asin === expected.asin);
  text('title', expected.title);
  if (expected.price !== undefined) row('price', expected.price, money(product.price), sameJson(money(product.price), expected.price));
  if (expected.listPrice !== undefined) row('listPrice', expected.listPrice, money(product.listPrice), sameJson(money(product.listPrice), expected.listPrice));
  text('brand', expected.brand);
  if (expected.authors !== undefined) {
    const names = product.authors?.map((a) => a.name);
    row(
      'authors',
      expected.authors,
      names,
      expected.authors === null ? names === undefined : names !== undefined && sameJson(sorted(names), sorted(expected.authors)),
    );
  }
  value('rating', expected.rating, product.rating);
  value('reviewCount', expected.reviewCount, product.reviewCount);
  text(
    'availability',
    expected.availability,
    (a, b) => a !== undefined && plain(a).toLowerCase().replace(/\.$/, '') === plain(b).toLowerCase().replace(/\.$/, ''),
  );
  value('inStock', expected.inStock, product.inStock);
  if (expected.featureCount !== undefined) {
    const count = product.features?.length ?? 0;
    row('featureCount', expected.featureCount, count, count === expected.featureCount);
  }
  if (expected.firstFeature !== undefined)
    row('firstFeature', expected.firstFeature, product.features?.[0]?.slice(0, 50), startsWith(product.features?.[0], expected.firstFeature));
  value('starHistogram', expected.starHistogram, product.starHistogram);
  if (expected.badges !== undefined) {
    const badges = product.badges ?? [];
    row('badges', expected.badges, badges, sameJson([...badges].sort(), [...expected.badges].sort()));
  }
  text('deliverTo', expected.deliverTo);
  text('coupon', expected.coupon);
  if (expected.variationLabels !== undefined) {
    const labels = (product.variations ?? []).map((v) => v.label).filter((l): l is string => l !== undefined);
    row('variationLabels', expected.variationLabels, labels, sameJson(sorted(labels), sorted(expected.variationLabels)));
  }
  if (expected.descriptionStart !== undefined) {
    const want = expected.descriptionStart;
    row('descriptionStart', want, product.description?.slice(0, 50), want === null ? product.description === undefined : startsWith(product.description, want));
  }
  text('seller', expected.seller);
  text('format', expected.format ?? undefined, startsWith);
  if (expected.currency !== undefined) row('currency', expected.currency, product.currency, product.currency === expected.currency);
  return rows;
}
