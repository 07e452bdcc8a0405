const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text and attribute values alike. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string);
}

export function imageUrl(id: string, modifier?: string): string {
  return `https://m.media-amazon.com/images/I/${id}${modifier ? `.${modifier}` : ''}.jpg`;
}

/** Slug used in product links, like `/Nordvik-Studio-Wireless-Headphones/dp/...`. */
export function slug(title: string): string {
  return (
    title
      .replace(/[^A-Za-z0-9]+/g, '-')
      .split('-')
      .filter(Boolean)
      .slice(0, 6)
      .join('-') || 'product'
  );
}
