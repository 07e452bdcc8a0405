/**
 * Full-size URL of a media-amazon image: the `._AC_US40_` style modifiers before the extension
 * only select a rendition, so dropping them yields the original upload.
 */
export function fullSizeImage(url: string): string {
  return url.replace(/(\/images\/I\/[^/._]+)\.[^/]*_\.(jpg|jpeg|png|gif|webp)$/i, '$1.$2');
}

/** Largest image of a `data-a-dynamic-image` map (`{"url":[width,height],...}`). */
export function largestDynamicImage(json: string): string | undefined {
  let map: unknown;
  try {
    map = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (map === null || typeof map !== 'object') return undefined;
  let best: string | undefined;
  let bestArea = -1;
  for (const [url, size] of Object.entries(map as Record<string, unknown>)) {
    const area = Array.isArray(size) && typeof size[0] === 'number' && typeof size[1] === 'number' ? size[0] * size[1] : 0;
    if (area > bestArea) {
      best = url;
      bestArea = area;
    }
  }
  return best;
}

/** A usable image URL: http(s) only, no `data:` placeholders or sprites. */
export function isImageUrl(url: string | undefined): url is string {
  return url !== undefined && /^https?:\/\//i.test(url) && !url.includes('/transparent-pixel');
}
