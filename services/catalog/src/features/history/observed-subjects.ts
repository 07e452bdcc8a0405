import { hash } from 'node:crypto';
import type { ObservedSubject } from '@crawl/contracts';

export type ProductSubjectOf = Extract<ObservedSubject, { kind: 'product' }>;
export type RankSubjectOf = Extract<ObservedSubject, { kind: 'rank' }>;

/** A keyword as history compares it: lower case, single spaces (jobs de-duplicate keywords the same way). */
export function normalizeKeyword(keyword: string): string {
  return keyword.trim().replace(/\s+/g, ' ').toLowerCase();
}

const digest = (parts: readonly (string | null)[]): string => hash('sha256', JSON.stringify(parts), 'base64url').slice(0, 32);

/**
 * A subject's key within its organization: a fixed-length digest of what names it (a keyword may
 * be long), so it can be an id and an index key on every store.
 */
export function subjectIdOf(organizationId: string, subject: ObservedSubject): string {
  return subject.kind === 'product'
    ? digest([organizationId, 'product', subject.marketplace, subject.asin, subject.zip])
    : digest([organizationId, 'rank', subject.marketplace, subject.keyword, subject.asin]);
}

/** The key of every rank subject of one keyword on one storefront (its ASINs). */
export function keywordScopeOf(organizationId: string, marketplace: string, keyword: string): string {
  return digest([organizationId, 'keyword', marketplace, keyword]);
}

const BEST_SELLERS_RANK = 'bestSellersRank';
const CATEGORY_PREFIX = `${BEST_SELLERS_RANK}:`;

/** The change field of one category's best-sellers rank. */
export const categoryField = (category: string): string => `${CATEGORY_PREFIX}${category}`;

/** Whether a change field is one of the requested tracked fields (`bestSellersRank` stands for every category). */
export function fieldSelected(field: string, wanted: ReadonlySet<string>): boolean {
  return wanted.has(field) || (field.startsWith(CATEGORY_PREFIX) && wanted.has(BEST_SELLERS_RANK));
}

/**
 * Values are stored under their field's name; a category's name is free text, so the characters
 * a stored field name cannot hold (`.` separates paths, `$` starts operators, `"` breaks the
 * embedded store's paths) and `%` itself are percent-encoded there.
 */
export function storedKeyOf(field: string): string {
  return field.replace(/[%.$"]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function fieldOfStoredKey(key: string): string {
  return key.replace(/%([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
