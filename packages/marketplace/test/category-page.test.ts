import { describe, expect, it } from 'vitest';
import { parseCategoryPage } from '../src/category/parse-category-page.ts';
import { parseSearchPage } from '../src/search/parse-search-page.ts';
import { fixture } from './fixtures.ts';

/** A results page with the department list a category listing has in its left column. */
function listing(results: string): string {
  return fixture(results).replace(/<body([^>]*)>/, (body) => `${body}${fixture('category-departments-us.html')}`);
}

describe('parseCategoryPage', () => {
  it('reads the items as the search parser does, with the category from the department list', () => {
    const html = listing('search-classic-us.html');
    const page = parseCategoryPage(html, { origin: 'https://www.amazon.com', page: 1 });
    const search = parseSearchPage(html, { origin: 'https://www.amazon.com', page: 1 });
    expect(page.recognized).toBe(true);
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items).toEqual(search.items);
    expect(page.hasNextPage).toBe(search.hasNextPage);
    expect(page.categoryName).toBe('Headphones, Earbuds & Accessories');
    expect(page.categoryPath).toEqual([{ name: 'Electronics', nodeId: '172282' }, { name: 'Headphones, Earbuds & Accessories' }]);
  });

  it('a results page that names no category is not the listing asked for', () => {
    const page = parseCategoryPage(fixture('search-grid-de.html'), { origin: 'https://www.amazon.de' });
    expect(page.recognized).toBe(false);
  });

  it.each(['block-captcha-200.html', 'block-robot-check.html', 'product-desktop-us.html'])('%s is no listing', (name) => {
    expect(parseCategoryPage(fixture(name), { origin: 'https://www.amazon.com' }).recognized).toBe(false);
  });

  it('a department list alone (a block page with a navigation stand-in) is no listing', () => {
    const html = `<html><body>${fixture('category-departments-us.html')}<p>Sorry, something went wrong.</p></body></html>`;
    expect(parseCategoryPage(html, { origin: 'https://www.amazon.com' }).recognized).toBe(false);
  });
});
