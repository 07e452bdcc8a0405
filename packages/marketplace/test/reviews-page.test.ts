import { describe, expect, it } from 'vitest';
import { parseReviewsPage } from '../src/index.ts';
import { reviewCountryOf, reviewDateOf } from '../src/reviews/review-date.ts';
import { helpfulVotesOf, reviewTotalsOf } from '../src/reviews/review-texts.ts';
import { fixture } from './fixtures.ts';

const US = { origin: 'https://www.amazon.com' };

describe('parseReviewsPage: review list', () => {
  const page = parseReviewsPage(fixture('reviews-list-us.html'), US);

  it('recognises the list and reads its totals and next page', () => {
    expect(page.kind).toBe('review_list');
    expect(page.recognized).toBe(true);
    expect(page.signInWall).toBe(false);
    expect(page.totalRatings).toBe(1234);
    expect(page.totalReviews).toBe(321);
    expect(page.hasNextPage).toBe(true);
  });

  it('reads every field of a full review, never a script look-alike', () => {
    expect(page.reviews.map((r) => r.reviewId)).toEqual(['R1TESTAAAA0001', 'R2TESTBBBB0002']);
    expect(page.reviews[0]).toEqual({
      reviewId: 'R1TESTAAAA0001',
      title: 'Boils fast & quietly',
      body: 'First line of an invented review.\nSecond line, with a bold word.\nThird.',
      rating: 5,
      date: '2024-03-03',
      dateRaw: 'Reviewed in the United States on March 3, 2024',
      country: 'the United States',
      verifiedPurchase: true,
      helpfulVotes: 1042,
      variant: 'Color: Slate Grey | Size: 1.7 L',
      images: ['https://m.media-amazon.com/images/I/71fakeImage1.jpg', 'https://m.media-amazon.com/images/I/61fakeImage2.jpg'],
      authorName: 'Robin Example',
      authorProfileId: 'amzn1.account.AFAKEPROFILE0001',
      missingFields: [],
    });
  });

  it('names what a plainer review lacks', () => {
    const review = page.reviews[1];
    expect(review?.verifiedPurchase).toBe(false);
    expect(review?.helpfulVotes).toBe(1);
    expect(review?.rating).toBe(2);
    expect(review?.date).toBe('2023-12-30');
    expect(review?.authorName).toBe('Amazon Customer');
    expect(review?.missingFields).toEqual(['variant', 'images', 'authorProfileId']);
  });

  it('reads the same from the page as UTF-8 bytes', () => {
    const bytes = new TextEncoder().encode(fixture('reviews-list-ja.html'));
    expect(parseReviewsPage(bytes, { origin: 'https://www.amazon.co.jp' })).toEqual(
      parseReviewsPage(fixture('reviews-list-ja.html'), { origin: 'https://www.amazon.co.jp' }),
    );
  });
});

describe('parseReviewsPage: storefront languages', () => {
  it('reads a German list: its last page, a review from abroad, no expander prompt', () => {
    const page = parseReviewsPage(fixture('reviews-list-de.html'), { origin: 'https://www.amazon.de' });
    expect(page.recognized).toBe(true);
    expect(page.hasNextPage).toBe(false);
    expect(page).toMatchObject({ totalRatings: 1234, totalReviews: 98 });
    const [first, second] = page.reviews;
    expect(first).toMatchObject({
      rating: 4,
      date: '2024-03-03',
      country: 'Deutschland',
      verifiedPurchase: true,
      helpfulVotes: 1,
      variant: 'Farbe: Weiß',
      body: 'Kocht schnell.',
    });
    expect(second).toMatchObject({
      rating: 1,
      date: '2023-12-14',
      country: 'dem Vereinigten Königreich',
      helpfulVotes: 12,
      authorProfileId: 'amzn1.account.AFAKEPROFILE0004',
    });
  });

  it('reads a Japanese list', () => {
    const page = parseReviewsPage(fixture('reviews-list-ja.html'), { origin: 'https://www.amazon.co.jp' });
    expect(page).toMatchObject({ recognized: true, totalRatings: 1234, totalReviews: 56 });
    expect(page.reviews[0]).toMatchObject({
      title: '使いやすい',
      rating: 4,
      date: '2024-03-03',
      country: '日本',
      helpfulVotes: 42,
      verifiedPurchase: true,
      authorName: 'ゆき',
    });
  });
});

describe('parseReviewsPage: product page top reviews', () => {
  const html = fixture('reviews-product-fr.html');

  it('is no review list, but is accepted as the fallback when asked', () => {
    expect(parseReviewsPage(html, { origin: 'https://www.amazon.fr' })).toMatchObject({ kind: 'product_page', recognized: false });
    const page = parseReviewsPage(html, { origin: 'https://www.amazon.fr', accept: ['product_page'] });
    expect(page.recognized).toBe(true);
    expect(page.hasNextPage).toBe(false);
    expect(page.totalRatings).toBe(2345);
  });

  it('reads local and foreign reviews, the shown text of a translated one only', () => {
    const page = parseReviewsPage(html, { origin: 'https://www.amazon.fr', accept: ['product_page'] });
    expect(page.reviews.map((r) => r.reviewId)).toEqual(['R5TESTEEEE0005', 'R6TESTFFFF0006']);
    expect(page.reviews[0]).toMatchObject({
      title: 'Parfaite',
      rating: 5,
      date: '2024-03-03',
      country: 'France',
      verifiedPurchase: true,
      helpfulVotes: 7,
      body: 'Silencieuse et rapide.',
    });
    expect(page.reviews[1]).toMatchObject({
      title: 'Decent',
      body: 'It is fine.',
      rating: 3,
      date: '2024-02-01',
      country: 'Royaume-Uni',
      verifiedPurchase: false,
    });
  });
});

describe('parseReviewsPage: pages that are not the list', () => {
  it('recognises the sign-in wall positively', () => {
    const page = parseReviewsPage(fixture('reviews-signin.html'), US);
    expect(page).toMatchObject({ kind: 'signin', recognized: false, signInWall: true, reviews: [] });
  });

  it.each(['block-captcha-200.html', 'block-robot-check.html', 'block-503-sorry.html', 'search-classic-us.html'])('%s is not a review list', (name) => {
    const page = parseReviewsPage(fixture(name), US);
    expect(page.recognized).toBe(false);
    expect(page.signInWall).toBe(false);
  });

  it('a product page without the fallback asked for is not recognised, nor a sign-in form without an email field', () => {
    expect(parseReviewsPage(fixture('product-desktop-us.html'), US).recognized).toBe(false);
    expect(parseReviewsPage('<form name="signIn" action="/ap/signin"><input name="password"></form>', US).signInWall).toBe(false);
  });
});

describe('review texts', () => {
  it.each([
    ['Reviewed in the United States on March 3, 2024', '2024-03-03', 'the United States'],
    ['Reviewed in India 🇮🇳 on 3 March 2024', '2024-03-03', 'India'],
    ['Rezension aus Deutschland vom 3. März 2024', '2024-03-03', 'Deutschland'],
    ['Commenté en France le 3 mars 2024', '2024-03-03', 'France'],
    ['Revisado en España el 3 de marzo de 2024', '2024-03-03', 'España'],
    ['Recensito in Italia il 3 marzo 2024', '2024-03-03', 'Italia'],
    ['Beoordeeld in Nederland op 3 maart 2024', '2024-03-03', 'Nederland'],
    ['Avaliado no Brasil em 3 de março de 2024', '2024-03-03', 'Brasil'],
    ['Recenserad i Sverige den 3 mars 2024', '2024-03-03', 'Sverige'],
    ['Recenzja napisana w Polsce 3 marca 2024', '2024-03-03', 'Polsce'],
    ['2024年3月3日に日本でレビュー済み', '2024-03-03', '日本'],
  ])('%s', (line, date, country) => {
    expect(reviewDateOf(line)).toBe(date);
    expect(reviewCountryOf(line)).toBe(country);
  });

  it('reads no date it cannot be sure of', () => {
    expect(reviewDateOf('Reviewed in the United States on Smarch 3, 2024')).toBeUndefined();
    expect(reviewDateOf('Reviewed on February 30, 2024')).toBeUndefined();
  });

  it.each([
    ['42 people found this helpful', 42],
    ['One person found this helpful', 1],
    ['A una persona le resultó útil', 1],
    ['A 13 personas les resultó útil', 13],
    ['Una persona l’ha trovato utile', 1],
    ['Une personne a trouvé cela utile', 1],
    ['1.204 Personen fanden diese Informationen hilfreich', 1204],
    ['1人のお客様がこれが役に立ったと考えています', 1],
  ])('%s → %i votes', (text, votes) => {
    expect(helpfulVotesOf(text)).toBe(votes);
  });

  it('reads the totals line in its forms', () => {
    expect(reviewTotalsOf('1,234 global ratings | 321 with reviews')).toEqual({ totalRatings: 1234, totalReviews: 321 });
    expect(reviewTotalsOf('Showing 1-10 of 321 reviews')).toEqual({ totalReviews: 321 });
    expect(reviewTotalsOf('2 345 évaluations')).toEqual({ totalRatings: 2345 });
    expect(helpfulVotesOf('Helpful')).toBeUndefined();
  });
});
