import { CREDITS_PER_CURRENCY_UNIT, type CreditPackage } from '@crawl/contracts';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Credits for a price at the display rate (1 currency unit = 10,000 credits). */
export function creditsForPrice(priceCents: number): number {
  return (priceCents * CREDITS_PER_CURRENCY_UNIT) / 100;
}

export const DEFAULT_PACKAGES: readonly CreditPackage[] = [
  { id: 'starter', name: 'Starter', priceCents: 500, currency: 'USD', credits: creditsForPrice(500), bonusCredits: 0 },
  { id: 'growth', name: 'Growth', priceCents: 2_000, currency: 'USD', credits: creditsForPrice(2_000), bonusCredits: 20_000 },
  { id: 'scale', name: 'Scale', priceCents: 10_000, currency: 'USD', credits: creditsForPrice(10_000), bonusCredits: 150_000 },
];

const PackageList = Type.Array(
  Type.Object(
    {
      id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
      name: Type.String({ minLength: 1, maxLength: 120 }),
      priceCents: Type.Integer({ minimum: 0 }),
      currency: Type.String({ minLength: 3, maxLength: 3 }),
      credits: Type.Integer({ minimum: 1 }),
      bonusCredits: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1 },
);

/** Reads CREDIT_PACKAGES (a JSON array) or returns the built-in catalog; a bad value fails start-up. */
export function parsePackages(text: string): CreditPackage[] {
  if (text.trim() === '') return DEFAULT_PACKAGES.map((p) => ({ ...p }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('CREDIT_PACKAGES: not valid JSON');
  }
  const problems = [...Value.Errors(PackageList, parsed)].map((e) => `${e.path || '(root)'}: ${e.message}`);
  if (problems.length > 0) throw new Error(`CREDIT_PACKAGES: ${problems.join('; ')}`);
  const packages = parsed as CreditPackage[];
  const ids = new Set(packages.map((p) => p.id));
  if (ids.size !== packages.length) throw new Error('CREDIT_PACKAGES: package ids must be unique');
  return packages.map((p) => ({ ...p, currency: p.currency.toUpperCase() }));
}
