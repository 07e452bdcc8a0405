// Element ids that delimit the parts of a product page the parser reads, across the desktop,
// apex and mobile layouts. Nested containers of one kind are counted, not double-read.

export const PRICE_REGIONS: ReadonlySet<string> = new Set([
  'corePriceDisplay_desktop_feature_div',
  'corePrice_desktop',
  'corePrice_feature_div',
  'apex_desktop',
  'apex_desktop_newAccordionRow',
  'apex_offerDisplay_desktop',
  'corePriceDisplay_mobile_feature_div',
  'corePrice_mobile_feature_div',
  'apex_offerDisplay_mobile',
  'apex_mobile_feature_div',
]);

/** Pre-2021 price blocks, plain text instead of `a-price` widgets. */
export const LEGACY_PRICE_IDS: ReadonlySet<string> = new Set(['priceblock_ourprice', 'priceblock_dealprice', 'priceblock_saleprice']);

export const RATING_REGIONS: ReadonlySet<string> = new Set([
  'acrPopover',
  'averageCustomerReviews',
  'averageCustomerReviews_feature_div',
  'acrCustomerReviewLink',
]);

export const FEATURE_REGIONS: ReadonlySet<string> = new Set(['feature-bullets', 'featurebullets_feature_div', 'feature-bullets-btf']);

export const IMAGE_REGIONS: ReadonlySet<string> = new Set(['altImages', 'imageBlock', 'main-image-container', 'image-block', 'imgTagWrapperId']);

/** Ids of the main product image across layouts. */
export const MAIN_IMAGE_IDS: ReadonlySet<string> = new Set(['landingImage', 'imgBlkFront', 'main-image', 'ebooksImgBlkFront']);

export const BREADCRUMB_REGIONS: ReadonlySet<string> = new Set(['wayfinding-breadcrumbs_feature_div', 'wayfinding-breadcrumbs_container']);

export const INFO_REGIONS: ReadonlySet<string> = new Set([
  'detailBulletsWrapper_feature_div',
  'detailBullets_feature_div',
  'productDetails_detailBullets_sections1',
  'productDetails_techSpec_section_1',
  'productDetails_db_sections',
  'prodDetails',
  'tech-specs-mobile',
]);

export const AVAILABILITY_IDS: ReadonlySet<string> = new Set(['availability', 'outOfStock']);

export const TWISTER_ID = /^(?:twister|twister_feature_div|twister-plus-inline-twister|inline-twister-expander-content-.+|tp-inline-twister-dim-values-container)$/;
export const TWISTER_DIMENSION_ID = /^(?:variation_|inline-twister-row-)(.+)$/;
