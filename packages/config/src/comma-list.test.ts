import { describe, expect, it } from 'vitest';
import { commaList } from './comma-list.ts';

describe('commaList', () => {
  it('trims the items and drops empty ones', () => {
    expect(commaList(' a.example, b.example:8080 ,,c ')).toEqual(['a.example', 'b.example:8080', 'c']);
  });

  it('is empty for an empty or blank setting', () => {
    expect(commaList('')).toEqual([]);
    expect(commaList(' , ')).toEqual([]);
  });
});
