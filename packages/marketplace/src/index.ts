export {
  MARKETPLACES,
  MARKETPLACE_DOMAINS,
  isMarketplaceDomain,
  marketplaceById,
  marketplaceDomainOf,
  marketplaceForHost,
  marketplaceForOrigin,
  type Marketplace,
  type MarketplaceDomain,
} from './marketplaces.ts';
export { isAllowedMarketplaceHost } from './hosts.ts';
export { isAsin, resolveDetailsTarget, type DetailsTarget, type ResolveDetailsTargetOptions } from './details-target.ts';
export { currencyDecimals, detectCurrency } from './currency.ts';
export { parsePrice, type Price, type PriceHint } from './price.ts';
export { parseCount, parseRating } from './numbers.ts';
export { BLOCK_SCAN_CHARS, detectBlock, type BlockCheckInput, type BlockReason, type BlockVerdict } from './block-detection.ts';
export { parseSearchPage } from './search/parse-search-page.ts';
export { SEARCH_ITEM_FIELDS } from './search/types.ts';
export type { ParseSearchPageOptions, SearchBadge, SearchItem, SearchItemField, SearchPage, SponsoredPlacement } from './search/types.ts';
export { parseProductPage, readProductPage } from './product/parse-product-page.ts';
export { PRODUCT_FIELDS } from './product/assemble-product.ts';
export type {
  BestSellersRank,
  BreadcrumbCategory,
  Contributor,
  FirstAvailable,
  ParseProductPageOptions,
  ProductBadge,
  ProductDetails,
  ProductFormat,
  ProductReading,
  ProductVariation,
  Savings,
  StarHistogram,
} from './product/types.ts';
export {
  SEARCH_SORTS,
  SEARCH_SORT_NAMES,
  STOREFRONT_LANGUAGES,
  isDeliveryZip,
  isSearchSort,
  storefrontLanguage,
  takesDeliveryZip,
  type SearchSort,
} from './storefront-options.ts';
export type { KindTarget, KindTargetResolver, ResolveKindTargetOptions } from './targets/kind-target.ts';
export { KIND_TARGETS, type TargetKind } from './targets/kind-targets.ts';
export { parseReviewsPage } from './reviews/parse-reviews-page.ts';
export { REVIEW_FIELDS } from './reviews/types.ts';
export type { ParseReviewsPageOptions, Review, ReviewField, ReviewsPage, ReviewsPageKind } from './reviews/types.ts';
export { parseBestsellersPage } from './bestsellers/parse-bestsellers-page.ts';
export { BESTSELLER_ITEM_FIELDS, BESTSELLER_LISTS } from './bestsellers/types.ts';
export type {
  BestsellerCategory,
  BestsellerItem,
  BestsellerItemField,
  BestsellerList,
  BestsellersPage,
  ParseBestsellersPageOptions,
} from './bestsellers/types.ts';
export { parseCategoryPage } from './category/parse-category-page.ts';
export type { CategoryPage, ParseCategoryPageOptions } from './category/types.ts';
export { parseSuggestions } from './autocomplete/parse-suggestions.ts';
export type { ParseSuggestionsOptions, Suggestion, SuggestionsPage } from './autocomplete/types.ts';
export { parseOffersPage } from './offers/parse-offers-page.ts';
export { OFFER_ITEM_FIELDS } from './offers/types.ts';
export type { OfferCondition, OfferItem, OfferItemField, OffersLayout, OffersPage, ParseOffersPageOptions } from './offers/types.ts';
export { parseSellerPage } from './seller/parse-seller-page.ts';
export { SELLER_FIELDS } from './seller/types.ts';
export type { ParseSellerPageOptions, SellerFeedbackCounts, SellerField, SellerLayout, SellerPage, SellerProfile } from './seller/types.ts';
export { completionHost, isAllowedCompletionHost, SUGGESTIONS_PATH, suggestionsUrl } from './autocomplete/completion-endpoint.ts';
