import { normalizeSpace } from '../../html/tags.ts';
import type { IdRegion, PageScan } from '../page-scan.ts';
import type { ProductBadge } from '../types.ts';

// The badge blocks are on every page, empty when the product has no such badge.
const BADGE_IDS: ReadonlyMap<string, ProductBadge> = new Map([
  ['acBadge_feature_div', 'amazons_choice'],
  ['zeitgeistBadge_feature_div', 'best_seller'],
  ['climatePledgeFriendlyBadge_feature_div', 'climate_pledge_friendly'],
  ['climatePledgeFriendlyBadge', 'climate_pledge_friendly'],
  ['smallBusinessBadge_feature_div', 'small_business'],
  ['smallBusinessBadge', 'small_business'],
]);

/** Badges next to the title and in the buy box: a badge block with any text counts. */
export class BadgesRegion implements IdRegion {
  readonly ids: readonly string[] = [...BADGE_IDS.keys()];
  private readonly scan: PageScan;

  constructor(scan: PageScan) {
    this.scan = scan;
  }

  onId(id: string): void {
    const badge = BADGE_IDS.get(id) as ProductBadge;
    const badges = this.scan.found.badges;
    this.scan.capture((text) => {
      if (normalizeSpace(text) !== '' && !badges.includes(badge)) badges.push(badge);
    });
  }
}
