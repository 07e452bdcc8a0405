import { searchRecord } from '@crawl/catalog/testing/result-records';
import { startTestService, type TestService, type TestUser } from '@crawl/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTarget } from './seeded-organization.ts';

/**
 * Spreadsheet formulas in crawled values (a product title is whatever the marketplace shows) must
 * reach a CSV export as text. The cell rule is unit-tested in
 * services/catalog/src/features/exports/export-stream.test.ts and through catalog's routes in
 * export.routes.test.ts; this is the whole path: the worker's report, storage, the gateway, the file.
 */

const DANGEROUS = ['=HYPERLINK("http://evil.example","x")', '+1+cmd|" /C calc"!A0', '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1', "=cmd|' /C calc'!A0"];

/** RFC 4180 fields of a CSV text: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') endField();
    else if (char === '\n') endRow();
    else if (char === '\r' && text[i + 1] === '\n') {
      endRow();
      i += 1;
    } else field += char;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

describe('CSV injection through the all-in-one', () => {
  let svc: TestService;
  let user: TestUser;
  let jobId: string;
  const items = [
    ...DANGEROUS.map((title, rank) =>
      searchRecord({ asin: `B00000000${rank}`, title, keyword: 'k', position: rank + 1, price: { amount: -1.5, currency: title, raw: title }, rank }),
    ),
    // Records are open: fields beyond the schema (a note, a list, a formula-like name) are exported too.
    searchRecord({
      asin: 'B0000000X1',
      title: 'plain',
      keyword: 'k',
      position: DANGEROUS.length + 1,
      price: { amount: 2, currency: 'EUR', raw: '2,00 €' },
      rank: -3,
      note: '-5',
      list: ['=a'],
      '=HEADER': '@x',
    }),
  ];

  beforeAll(async () => {
    svc = await startTestService({ env: { SCHEDULER_TICK_MS: '3600000' } });
    user = await svc.registerUser();
    const project = await svc.request({ method: 'POST', url: '/projects', token: user.token, body: { name: 'csv' } });
    const job = await svc.request({
      method: 'POST',
      url: `/projects/${project.body.data.id}/jobs`,
      token: user.token,
      body: { type: 'search', targets: ['k'] },
    });
    jobId = job.body.data.id;
    await reportTarget(svc, jobId, 0, items);
  });
  afterAll(async () => svc?.close());

  it('starts no CSV cell, header or nested value with a formula character', async () => {
    const res = await svc.request({ method: 'GET', url: `/jobs/${jobId}/export?format=csv`, token: user.token });
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(res.text.replace(/\n$/, ''));
    expect(rows).toHaveLength(items.length);
    const cells = [...(header ?? []), ...rows.flat()];
    // Numbers are written as numbers (a spreadsheet reads -1.5 as a value, not a formula).
    const risky = cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell));
    expect(risky).toEqual([]);
    const title = (header ?? []).indexOf('title');
    expect(rows.slice(0, DANGEROUS.length).map((row) => row[title])).toEqual(DANGEROUS.map((value) => `'${value}`));
    const currency = (header ?? []).indexOf('price.currency');
    expect(rows.slice(0, DANGEROUS.length).map((row) => row[currency])).toEqual(DANGEROUS.map((value) => `'${value}`));
    expect(header).toContain("'=HEADER");
    const last = rows.at(-1) ?? [];
    expect(last[(header ?? []).indexOf('note')]).toBe("'-5");
    expect(last[(header ?? []).indexOf('rank')]).toBe('-3');
  });

  it('keeps the JSON export exact: it is data, not a spreadsheet', async () => {
    const res = await svc.request({ method: 'GET', url: `/jobs/${jobId}/export?format=json`, token: user.token });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual(items);
  });
});
