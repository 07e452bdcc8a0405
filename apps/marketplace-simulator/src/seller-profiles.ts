import { MARKETPLACES, type MarketplaceDomain } from '@crawl/marketplace';
import { rngFor } from './rng.ts';
import { amazonSellerId, knownSellerName, SELLER_ID } from './seller-ids.ts';

/** Feedback of one period: the count and the positive, neutral and negative shares (percent). */
export interface PeriodFeedback {
  count: number;
  positive: number;
  neutral: number;
  negative: number;
}

/** A seller's profile, storefront-independent, the same for an id every time. */
export interface SimSeller {
  id: string;
  /** Absent: the storefront's own name for Amazon. */
  name?: string;
  amazon: boolean;
  /** Absent for a seller without ratings ("Just launched") and for Amazon. */
  feedback?: { days30: PeriodFeedback; days90: PeriodFeedback; months12: PeriodFeedback; lifetime: PeriodFeedback };
  /** Absent where the profile shows no detailed seller information. */
  business?: { name: string; address: string[] };
}

const FIRST = ['Alder', 'Brightwater', 'Copper', 'Driftwood', 'Evergreen', 'Foxglove', 'Granite', 'Hollow Oak', 'Ironbark', 'Juniper'];
const SECOND = ['Goods', 'Trading', 'Supply', 'Outlet', 'Market', 'Direct', 'Emporium', 'Depot'];
const ADDRESSES: readonly (readonly string[])[] = [
  ['1200 Harbor Way', 'Suite 4', 'Portland', 'OR', '97201', 'US'],
  ['Hauptstraße 12', '80331', 'München', 'DE'],
  ['5 rue des Lilas', '69001', 'Lyon', 'FR'],
  ['Via Roma 41', '20121', 'Milano', 'MI', 'IT'],
  ['Calle Mayor 8', '28013', 'Madrid', 'ES'],
  ['Room 1502, Building 3', 'Nanshan District', 'Shenzhen', 'Guangdong', '518000', 'CN'],
  ['2-1-1 Nihonbashi', 'Chuo-ku', 'Tokyo', '103-0027', 'JP'],
  ['14 Market Street', 'Leeds', 'LS1 6DT', 'GB'],
];
const COMPANY_FORMS: Readonly<Record<string, string>> = { US: 'LLC', DE: 'GmbH', FR: 'SARL', IT: 'S.r.l.', ES: 'S.L.', CN: 'Co., Ltd.', JP: 'K.K.', GB: 'Ltd' };

function period(rng: ReturnType<typeof rngFor>, count: number, positive: number): PeriodFeedback {
  if (count === 0) return { count: 0, positive: 0, neutral: 0, negative: 0 };
  const clamped = Math.max(50, Math.min(100, positive + rng.int(-2, 2)));
  const negative = Math.min(100 - clamped, rng.int(0, 3));
  return { count, positive: clamped, neutral: 100 - clamped - negative, negative };
}

/** The profile behind a well-formed seller id (undefined for any other string); Amazon's on its storefront id. */
export function sellerProfile(id: string, domain: MarketplaceDomain): SimSeller | undefined {
  if (!SELLER_ID.test(id)) return undefined;
  if (id === amazonSellerId(domain)) return { id, amazon: true };
  const rng = rngFor('seller', id);
  const name = knownSellerName(id) ?? `${rng.pick(FIRST)} ${rng.pick(SECOND)}`;
  const seller: SimSeller = { id, name, amazon: false };
  if (!rng.chance(0.08)) {
    const lifetime = Math.floor(rng.next() ** 2 * 80_000) + 5;
    const months12 = Math.max(1, Math.floor((lifetime * rng.int(10, 60)) / 100));
    const days90 = Math.floor((months12 * rng.int(15, 35)) / 100);
    const days30 = rng.chance(0.1) ? 0 : Math.floor((days90 * rng.int(20, 45)) / 100);
    const positive = rng.int(78, 100);
    seller.feedback = {
      days30: period(rng, days30, positive),
      days90: period(rng, days90, positive),
      months12: { ...period(rng, months12, positive), positive },
      lifetime: period(rng, lifetime, positive),
    };
  }
  if (rng.chance(0.88)) {
    const address = rng.pick(ADDRESSES);
    const country = address[address.length - 1] as string;
    seller.business = { name: `${name} ${COMPANY_FORMS[country] ?? 'Ltd'}`, address: [...address] };
  }
  return seller;
}

/** The storefront link of a seller's profile: its products on the storefront. */
export function storefrontHref(id: string, domain: MarketplaceDomain): string {
  return `/s?me=${id}&marketplaceID=${MARKETPLACES[domain].id}`;
}
