import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Opaque, URL-safe ids that sort by creation time (48-bit millisecond clock, then 80 random
 * bits), so "newest first" has a stable tie-break. An optional prefix names the resource.
 */
export function newId(prefix = ''): string {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 10; i += 1) {
    head = ALPHABET[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i += 1) tail += ALPHABET[(random[i] ?? 0) % 32];
  return `${prefix}${head}${tail}`;
}
