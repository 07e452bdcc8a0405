import { describe, expect, it } from 'vitest';
import { EmbeddedDocumentStore } from './embedded-document-store.ts';
import { filterToSql } from './sqlite-filter.ts';

const indexed = new Set(['organizationId', 'createdAt']);

describe('filterToSql', () => {
  it('spells indexed paths out, as the expression indexes do', () => {
    const { sql, params } = filterToSql({ organizationId: 'org_1', createdAt: { $gte: '2026' } }, indexed);
    expect(sql).toContain(`json_extract(doc, '$.organizationId') = ?`);
    expect(sql).toContain(`json_extract(doc, '$.createdAt') >= ?`);
    expect(params).toEqual([{}, 'org_1', '2026']);
  });

  it('binds any other path, so paths that embed ids give one statement text', () => {
    const a = filterToSql({ _id: 'c1', 'inflight.jAAAA.op': 'op1', 'fences.b3': { $exists: false } }, indexed);
    const b = filterToSql({ _id: 'c1', 'inflight.jBBBB.op': 'op2', 'fences.b7': { $exists: false } }, indexed);
    expect(a.sql).toBe(b.sql);
    expect(a.sql).not.toContain('jAAAA');
    expect(a.params).toEqual([{ f0: '$.inflight.jAAAA.op', f1: '$.fences.b3' }, 'c1', 'op1']);
    expect(b.params[0]).toEqual({ f0: '$.inflight.jBBBB.op', f1: '$.fences.b7' });
  });

  it('binds a path once however often the condition reads it, and not at all when it does not', () => {
    const { sql, params } = filterToSql({ 'a.b': { $gte: 1, $lte: 5 }, 'c.d': { $in: [] } }, indexed);
    expect(sql.match(/:f0\)/g)?.length).toBeGreaterThan(1);
    expect(params[0]).toEqual({ f0: '$.a.b' });
  });

  it('queries bound paths the same as literal ones', async () => {
    const store = EmbeddedDocumentStore.inMemory();
    const counters = store.collection<{ _id: string; inflight: Record<string, { op: string }>; fences: Record<string, number> }>('counters');
    await counters.insertOne({ _id: 'c1', inflight: { jAAAA: { op: 'op1' } }, fences: { b3: 2 } });
    expect(await counters.count({ 'inflight.jAAAA.op': 'op1', 'fences.b3': 2 })).toBe(1);
    expect(await counters.count({ 'inflight.jAAAA.op': 'op2' })).toBe(0);
    expect(await counters.count({ 'inflight.jBBBB': { $exists: false }, 'fences.b7': { $exists: false } })).toBe(1);
    expect(await counters.updateOne({ _id: 'c1', 'inflight.jAAAA.op': 'op1' }, { $unset: { 'inflight.jAAAA': true }, $inc: { 'fences.b3': 1 } })).toMatchObject(
      { fences: { b3: 3 } },
    );
    await store.close();
  });
});
