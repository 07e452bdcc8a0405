import type { MarketplaceDomain } from '@crawl/marketplace';
import type { BrowseNode } from '../category-nodes.ts';
import { formatCount, formatMoney } from '../money.ts';
import { ratingText, type StorefrontProduct } from '../storefront-view.ts';
import { esc, imageUrl, slug } from './html.ts';
import type { ListTexts } from './list-texts.ts';

/** `grid`: the 2022-on card grid (`#gridItemRoot`); `list`: the older ordered list (`#zg-ordered-list`). */
export type BestsellersLayout = 'grid' | 'list';
export const BESTSELLERS_LAYOUTS: readonly BestsellersLayout[] = ['grid', 'list'];

/** The storefront's path segment and ref tag of each kind of ranked list. */
export const LIST_PATHS: Readonly<Record<string, { path: string; ref: string }>> = {
  bestsellers: { path: 'bestsellers', ref: 'zg_bs' },
  'new-releases': { path: 'new-releases', ref: 'zg_bsnr' },
  'movers-and-shakers': { path: 'movers-and-shakers', ref: 'zg_bsms' },
};

export interface RankedCard {
  rank: number;
  view: StorefrontProduct;
}

export interface BestsellersModel {
  domain: MarketplaceDomain;
  list: string;
  node: BrowseNode;
  page: number;
  cards: RankedCard[];
  hasNextPage: boolean;
  texts: ListTexts;
}

function productPath(model: BestsellersModel, card: RankedCard): string {
  const ref = LIST_PATHS[model.list]?.ref ?? 'zg_bs';
  return `/${slug(card.view.product.title)}/dp/${card.view.product.asin}/ref=${ref}_c_${model.node.path[0]?.slug ?? 'x'}_d_sccl_${card.rank}`;
}

function listHref(model: BestsellersModel, level: { slug: string; nodeId?: string }): string {
  const path = LIST_PATHS[model.list]?.path ?? 'bestsellers';
  return `/gp/${path}/${level.slug}${level.nodeId ? `/${level.nodeId}` : ''}/ref=${LIST_PATHS[model.list]?.ref ?? 'zg_bs'}_nav_${level.slug}`;
}

function rootHref(model: BestsellerModelLike): string {
  return `/gp/${LIST_PATHS[model.list]?.path ?? 'bestsellers'}/ref=zg_bs_unv_${model.node.path[0]?.slug ?? 'x'}_1_1`;
}
type BestsellerModelLike = Pick<BestsellersModel, 'list' | 'node'>;

function heading(model: BestsellersModel): string {
  return model.texts.heading(model.list, model.node.name);
}

function nextPage(model: BestsellersModel): string {
  if (!model.hasNextPage) return '';
  const path = LIST_PATHS[model.list]?.path ?? 'bestsellers';
  return `<ul class="a-pagination"><li class="a-last"><a href="/gp/${path}/${model.node.path[0]?.slug ?? 'x'}/${model.node.nodeId}/ref=zg_bs_pg_${model.page + 1}?ie=UTF8&amp;pg=${model.page + 1}">${esc(model.texts.nextPage)}</a></li></ul>`;
}

// ---- grid (2022 on) ----

function gridTree(model: BestsellersModel): string {
  const levels = model.node.path;
  let inner = `<div role="treeitem" class="_p13n-zg-nav-tree-all_style_zg-browse-item__1rdKf"><span class="_p13n-zg-nav-tree-all_style_zg-selected__1SfhQ">${esc(model.node.name)}</span></div>`;
  for (let i = levels.length - 2; i >= 0; i--) {
    const level = levels[i] as (typeof levels)[number];
    inner = `<div role="treeitem" class="_p13n-zg-nav-tree-all_style_zg-browse-item__1rdKf"><a href="${esc(listHref(model, level))}">${esc(level.name)}</a></div><div role="group" class="_p13n-zg-nav-tree-all_style_zg-browse-group__88fbz">${inner}</div>`;
  }
  return `<div role="tree" class="_p13n-zg-nav-tree-all_style_zg-browse-root__-jwNv"><div role="group" class="_p13n-zg-nav-tree-all_style_zg-browse-group__88fbz"><div role="treeitem" class="_p13n-zg-nav-tree-all_style_zg-browse-item__1rdKf"><a href="${esc(rootHref(model))}">${esc(model.texts.anyDepartment)}</a></div><div role="group" class="_p13n-zg-nav-tree-all_style_zg-browse-group__88fbz">${inner}</div></div></div>`;
}

function gridCard(model: BestsellersModel, card: RankedCard, index: number): string {
  const { view } = card;
  const p = view.product;
  const href = esc(productPath(model, card));
  const rating = ratingText(view);
  const stars = rating
    ? `<div class="a-icon-row"><a class="a-link-normal" title="${esc(rating)}" href="/product-reviews/${p.asin}/ref=zg_bs_c_r_sccl_${card.rank}"><i class="a-icon a-icon-star-small a-star-small-${String(Math.round((p.rating ?? 0) * 2) / 2).replace('.', '-')} aok-align-top"><span class="a-icon-alt">${esc(rating)}</span></i><span class="a-size-small">${formatCount(p.reviewCount, model.domain)}</span></a></div>`
    : '';
  const price = view.price
    ? `<div class="a-row"><a class="a-link-normal a-text-normal" href="${href}"><span class="a-size-base a-color-price"><span class="_cDEzb_p13n-sc-price_3mJ9Z">${esc(formatMoney(view.price, model.domain).text)}</span></span></a></div>`
    : '';
  const metadata = esc(JSON.stringify({ ref: `zg_bs_c_${card.rank}`, asin: p.asin }));
  return `<div id="gridItemRoot" class="a-column a-span12 a-text-center _cDEzb_grid-column_2hIsc"><div class="zg-grid-general-faceout"><div class="a-cardui _cDEzb_grid-cell_1uMOS expandableGrid p13n-grid-content"><div class="a-section zg-bdg-ctr"><div class="a-section zg-bdg-body zg-bdg-clr-body aok-float-left"><span class="zg-bdg-text">#${card.rank}</span></div></div><div id="p13n-asin-index-${index}" class="a-section"><div id="${p.asin}" data-asin="${p.asin}" data-p13n-asin-metadata="${metadata}" class="p13n-sc-uncoverable-faceout"><a class="a-link-normal aok-block" tabindex="-1" href="${href}"><div class="a-section a-spacing-mini _cDEzb_noop_3Xbw5"><img alt="${esc(p.title)}" src="${imageUrl(p.imageIds[0] as string, '_AC_UL300_SR300,200_')}" class="a-dynamic-image p13n-sc-dynamic-image p13n-product-image" height="200" width="200"></div></a><a class="a-link-normal aok-block" href="${href}"><span><div class="_cDEzb_p13n-sc-css-line-clamp-3_g3dy1">${esc(p.title)}</div></span></a>${stars}${price}</div></div></div></div></div>`;
}

function gridContent(model: BestsellersModel): string {
  const recs = esc(
    JSON.stringify(model.cards.map((card) => ({ id: card.view.product.asin, metadataMap: { 'render.zg.rank': String(card.rank) }, linkParameters: {} }))),
  );
  return `<div class="a-row"><div id="zg-left-col" class="a-column a-span3">${gridTree(model)}</div><div id="zg-right-col" class="a-column a-span9 a-span-last"><div id="zg_banner_text" class="a-section"><h1 class="a-size-large a-spacing-medium a-text-bold">${esc(heading(model))}</h1></div><div class="p13n-desktop-grid" data-client-recs-list="${recs}">${model.cards.map((card, i) => gridCard(model, card, i)).join('\n')}</div>${nextPage(model)}</div></div>`;
}

// ---- ordered list (older) ----

function listTree(model: BestsellersModel): string {
  const levels = model.node.path;
  let inner = `<ul><li><span class="zg_selected">${esc(model.node.name)}</span></li></ul>`;
  for (let i = levels.length - 2; i >= 0; i--) {
    const level = levels[i] as (typeof levels)[number];
    inner = `<ul><li><a href="${esc(listHref(model, level))}">${esc(level.name)}</a></li>${inner}</ul>`;
  }
  return `<ul id="zg_browseRoot"><li><a href="${esc(rootHref(model))}">${esc(model.texts.anyDepartment)}</a></li>${inner}</ul>`;
}

function listCard(model: BestsellersModel, card: RankedCard): string {
  const { view } = card;
  const p = view.product;
  const href = esc(productPath(model, card));
  const rating = ratingText(view);
  const reviews = `/product-reviews/${p.asin}/ref=zg_bs_cr_${card.rank}`;
  const stars = rating
    ? `<div class="a-icon-row a-spacing-none"><a class="a-link-normal" title="${esc(rating)}" href="${reviews}"><i class="a-icon a-icon-star a-star-${String(Math.round((p.rating ?? 0) * 2) / 2).replace('.', '-')}"><span class="a-icon-alt">${esc(rating)}</span></i></a><a class="a-size-small a-link-normal" href="${reviews}">${formatCount(p.reviewCount, model.domain)}</a></div>`
    : '';
  const price = view.price
    ? `<div class="a-row"><a class="a-link-normal a-text-normal" href="${href}"><span class="a-size-base a-color-price"><span class="p13n-sc-price">${esc(formatMoney(view.price, model.domain).text)}</span></span></a></div>`
    : '';
  // Long titles are cut on the page and kept whole in the `title` attribute, as the older list did.
  const shown = p.title.length > 60 ? `${p.title.slice(0, 57).trimEnd()}…` : p.title;
  const title =
    shown === p.title
      ? `<div class="p13n-sc-truncate p13n-sc-line-clamp-2" aria-hidden="true" data-rows="2">${esc(p.title)}</div>`
      : `<div class="p13n-sc-truncated" aria-hidden="true" data-rows="2" title="${esc(p.title)}">${esc(shown)}</div>`;
  return `<li class="zg-item-immersion" role="gridcell"><span class="a-list-item"><div class="a-section a-spacing-none aok-relative"><div class="a-row a-spacing-none aok-inline-block"><span class="a-size-small aok-float-left zg-badge-body zg-badge-color"><span class="zg-badge-text">#${card.rank}</span></span></div><span class="aok-inline-block zg-item"><a class="a-link-normal" href="${href}"><span class="zg-text-center-align"><div class="a-section a-spacing-small"><img alt="${esc(p.title)}" src="${imageUrl(p.imageIds[0] as string, '_AC_UL200_SR200,200_')}" height="200" width="200"></div></span>${title}</a>${stars}${price}</span></div></span></li>`;
}

function listContent(model: BestsellersModel): string {
  return `<div id="zg_banner_text_wrapper"><h1 id="zg_listTitle" class="a-size-large">${esc(heading(model))}</h1></div><div id="zg-left-col">${listTree(model)}</div><div id="zg-center-div"><ol id="zg-ordered-list" class="a-ordered-list a-vertical">${model.cards.map((card) => listCard(model, card)).join('\n')}</ol>${nextPage(model)}</div>`;
}

/** The list's area of a best-seller page in one of the two layouts the parser supports. */
export function bestsellersContent(model: BestsellersModel, layout: BestsellersLayout): string {
  return layout === 'grid' ? gridContent(model) : listContent(model);
}
