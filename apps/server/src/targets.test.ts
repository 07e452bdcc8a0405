import { describe, expect, it } from 'vitest';
import { parseTargets } from './targets.ts';

describe('parseTargets', () => {
  it('defaults to every service', () => {
    expect(parseTargets([])).toEqual(['gateway', 'auth', 'catalog', 'billing', 'crawler-worker']);
    expect(parseTargets(['--target=all'])).toHaveLength(5);
  });

  it('accepts repeated and comma-separated targets, once each', () => {
    expect(parseTargets(['--target=catalog,billing', '--target', 'catalog', '-target=gateway'])).toEqual(['catalog', 'billing', 'gateway']);
  });

  it('falls back to TARGET from the environment', () => {
    expect(parseTargets([], 'auth')).toEqual(['auth']);
    expect(parseTargets(['--target=billing'], 'auth')).toEqual(['billing']);
  });

  it('rejects unknown targets and arguments with the valid list', () => {
    expect(() => parseTargets(['--target=warehouse'])).toThrow(
      'Unknown target "warehouse"; valid targets: all, gateway, auth, catalog, billing, crawler-worker',
    );
    expect(() => parseTargets(['--port=1'])).toThrow(/Unknown argument "--port=1"/);
    expect(() => parseTargets(['--target'])).toThrow(/needs a value/);
  });
});
