export { createSimulator, type Simulator, type SimulatorOptions } from './server.ts';
export type { SimulatorStats, Route } from './stats.ts';
export {
  BLOCK_KINDS,
  BUILT_IN_RULES,
  FAULT_KINDS,
  decideFault,
  parseFaultList,
  type FaultConfig,
  type FaultKind,
  type FaultRule,
  type FaultSpec,
} from './faults.ts';
export { faultResponse, type FaultRequest, type FaultResponse } from './fault-responses.ts';
export { NOT_FOUND_PREFIX, SPECIAL_ASINS, WELL_KNOWN_ASINS, isCatalogAsin, makeCatalogAsin } from './asin.ts';
export {
  getProduct,
  isKnownAsin,
  searchCatalog,
  seededProduct,
  type CatalogProduct,
  type SearchEntry,
  type SearchResults,
  type SeededProduct,
  type StockState,
} from './catalog.ts';
export { DEFAULT_DRIFT, DRIFT_FIELDS, changedFields, drifts, stepAt, type DriftField, type DriftSettings } from './drift.ts';
export { SEEDED_MARKET, marketAt, type Market, type MarketSettings } from './market.ts';
export { MarketOverrides, type ProductOverride, type SearchRank } from './control/overrides.ts';
export { CONTROL_PREFIX } from './control/routes.ts';
export { SimulatorClock, type TimeSource } from './simulator-clock.ts';
export { ADDRESS_CHANGE_PATH, CSRF_HEADER, LOCATION_COOKIE, glowToken } from './delivery-location.ts';
export { CATEGORIES, type Category } from './categories.ts';
export { amountOf, formatMoney, localPrice, priceIn, SHOPPER_CURRENCIES, type Money } from './money.ts';
export { CURRENCY_COOKIE } from './shopper-currency.ts';
export { storefrontProduct, type StorefrontProduct } from './storefront-view.ts';
export { textsFor, type Texts } from './texts.ts';
export {
  productLayoutFor,
  renderHomePage,
  renderProductPage,
  renderSearchPage,
  searchLayoutFor,
  type RenderHomeOptions,
  type RenderProductOptions,
  type RenderSearchOptions,
  type RenderedPage,
} from './render/pages.ts';
export { PRODUCT_LAYOUTS, starShares, type ProductLayout } from './render/product-layouts.ts';
export { SEARCH_LAYOUTS, type SearchLayout } from './render/search-layouts.ts';
export type { PageSize } from './render/page-shell.ts';
export { PAGE_SHAPES, REAL_PAGE_SHAPES, type PageShape } from './render/page-shapes.ts';
export { apiServicesPage, captchaPage, notFoundPage, robotCheckPage, serviceUnavailablePage } from './render/block-pages.ts';
export { interstitialPage, wafCaptchaPage, wafChallengePage } from './render/bot-manager-pages.ts';
export { errorPage, promotionPage, signinPage, type PromotionPageOptions } from './render/stand-in-pages.ts';
export {
  MAX_REVIEW_PAGES,
  REVIEWS_PER_PAGE,
  STAR_FILTERS,
  reviewContent,
  reviewListing,
  reviewsWallOf,
  topReviews,
  type ReviewQuery,
  type ReviewSort,
  type ReviewsWall,
  type SimReview,
  type StarFilter,
} from './reviews-catalog.ts';
export { renderReviewsPage, reviewsLayoutFor, topReviewsBlock, type RenderReviewsOptions } from './render/reviews-page.ts';
export { REVIEWS_LAYOUTS, type ReviewsLayout } from './render/reviews-layouts.ts';
export { browseNode, LIST_LENGTH, LIST_PAGE_SIZE, rankedAsins, type BrowseNode, type NodeLevel } from './category-nodes.ts';
export { BESTSELLERS_LAYOUTS, type BestsellersLayout } from './render/bestsellers-layouts.ts';
export { bestsellersLayoutFor, renderBestsellersPage, type RenderBestsellersOptions } from './render/bestsellers-page.ts';
export { LISTING_PAGES, renderCategoryListing, type RenderCategoryListingOptions } from './render/category-listing.ts';
export { suggestionsFor, type SimulatedSuggestion } from './suggestions.ts';
export { filteredOffers, offerListing, OFFERS_PER_PAGE, type OfferListing, type SimCondition, type SimOffer } from './offers-catalog.ts';
export { AOD_LAYOUTS, type AodLayout } from './render/offers-layouts.ts';
export { aodLayoutFor, renderAodFragment, renderOfferListingPage, type RenderOffersOptions } from './render/offers-page.ts';
export { amazonSellerId, OFFER_SELLERS, sellerIdOf } from './seller-ids.ts';
export { sellerProfile, type SimSeller } from './seller-profiles.ts';
export { renderSellerPage, SELLER_LAYOUTS, sellerLayoutFor, type SellerLayout } from './render/seller-page.ts';
