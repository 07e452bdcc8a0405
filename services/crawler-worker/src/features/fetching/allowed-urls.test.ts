import { describe, expect, it } from 'vitest';
import { allowedUrlRule } from './allowed-urls.ts';

describe('allowedUrlRule', () => {
  it('allows storefronts over https, the configured base and extra hosts; nothing else', () => {
    const allowed = allowedUrlRule('http://127.0.0.1:4010', ['sim.local:8080']);
    const ok = (url: string) => allowed(new URL(url));
    expect(ok('https://www.amazon.de/dp/B000000001')).toBe(true);
    expect(ok('http://127.0.0.1:4010/s?k=x')).toBe(true);
    expect(ok('http://sim.local:8080/s?k=x')).toBe(true);
    expect(ok('http://www.amazon.de/dp/B000000001')).toBe(false);
    expect(ok('https://www.amazon.de.evil.com/')).toBe(false);
    expect(ok('http://127.0.0.1:4011/')).toBe(false);
    expect(ok('http://169.254.169.254/latest/meta-data')).toBe(false);
    expect(ok('https://user:pw@www.amazon.com/')).toBe(false);
    expect(ok('file:///etc/passwd')).toBe(false);
  });
});
