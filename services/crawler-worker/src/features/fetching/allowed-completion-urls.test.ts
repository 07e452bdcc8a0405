import { describe, expect, it } from 'vitest';
import { allowedUrlRule } from './allowed-urls.ts';

describe('allowedUrlRule: the storefronts’ suggestion hosts', () => {
  const allowed = allowedUrlRule('http://127.0.0.1:4010', []);

  it('fetches the suggestion endpoint of a storefront’s completion host over https', () => {
    expect(allowed(new URL('https://completion.amazon.de/api/2017/suggestions?prefix=kaf&mid=A1PA6795UKMFR9'))).toBe(true);
    expect(allowed(new URL('https://completion.amazon.com/api/2017/suggestions?prefix=a'))).toBe(true);
  });

  it('nothing else there, nor over http, nor a host that only looks like one', () => {
    expect(allowed(new URL('https://completion.amazon.de/'))).toBe(false);
    expect(allowed(new URL('https://completion.amazon.de/search/complete?q=a'))).toBe(false);
    expect(allowed(new URL('http://completion.amazon.de/api/2017/suggestions?prefix=a'))).toBe(false);
    expect(allowed(new URL('https://completion.amazon.example/api/2017/suggestions?prefix=a'))).toBe(false);
    expect(allowed(new URL('https://completion.evil.com/api/2017/suggestions?prefix=a'))).toBe(false);
  });
});
