import { describe, expect, it } from 'vitest';
import { generatedProfile } from './browser-profiles.ts';
import { navigationHeaders } from './header-profiles.ts';

const profiles = Array.from({ length: 1000 }, () => generatedProfile());

describe('generatedProfile', () => {
  it('gives desktop Chrome, Edge, Firefox and Safari identities on Windows and macOS, not one fixed string', () => {
    for (const { headers } of profiles) {
      expect(headers['user-agent']).toMatch(/^Mozilla\/5\.0 \((Windows NT 10\.0|Macintosh; Intel Mac OS X [\d_.]+)[;)]/);
      expect(headers['user-agent']).toMatch(/(Chrome|Firefox|Version)\/\d+/);
      expect(headers.accept).toContain('text/html');
    }
    expect(new Set(profiles.map((p) => p.headers['user-agent'])).size).toBeGreaterThan(3);
  });

  it('keeps client hints consistent with the user agent (the check bot detectors make first)', () => {
    for (const { headers } of profiles) {
      const ua = headers['user-agent'] as string;
      const chromium = /Chrome\/(\d+)/.exec(ua);
      if (!chromium) {
        expect(headers, ua).not.toHaveProperty('sec-ch-ua');
        continue;
      }
      expect(headers['sec-ch-ua'], ua).toContain(`"Chromium";v="${chromium[1]}"`);
      // Chrome's user agent is shared by Chromium browsers (Brave, Opera …); Edge names itself.
      if (ua.includes(' Edg/')) expect(headers['sec-ch-ua'], ua).toContain('"Microsoft Edge"');
      expect(headers['sec-ch-ua-platform'], ua).toBe(ua.includes('Windows') ? '"Windows"' : '"macOS"');
      expect(headers['sec-ch-ua-mobile']).toBe('?0');
    }
  });

  it('leaves referer and cookie to the request but knows where they go', () => {
    for (const profile of profiles) {
      expect(profile.headers).not.toHaveProperty('referer');
      expect(profile.headers).not.toHaveProperty('cookie');
      expect(profile.order).toEqual(expect.arrayContaining(['referer', 'cookie', 'user-agent']));
    }
    const chrome = profiles.find((p) => p.headers['user-agent']?.includes('Chrome/') && !p.headers['user-agent'].includes('Edg/'));
    const names = Object.keys(navigationHeaders({ profile: chrome!, lang: 'de-DE', acceptEncoding: 'gzip', referer: 'https://www.amazon.de/', cookie: 'a=1' }));
    expect(names.indexOf('sec-ch-ua')).toBeLessThan(names.indexOf('user-agent'));
    expect(names.indexOf('referer')).toBeLessThan(names.indexOf('accept-encoding'));
    expect(names.indexOf('cookie')).toBeGreaterThan(names.indexOf('accept-language'));
  });
});
