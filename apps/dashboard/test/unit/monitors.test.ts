import type { Monitor } from '@crawl/sdk';
import { ruleInWords } from '@crawl/sdk';
import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, type MonitorDraft, opsForField, ruleOf, updateOf, withField, withOp } from '../../src/format/monitor-draft.ts';
import { creditsInWords, eventProductHref, scheduleInWords, statusInWords } from '../../src/format/monitor-words.ts';

const draft = (patch: Partial<MonitorDraft> = {}): MonitorDraft => ({
  ...draftOf(),
  name: 'Headphones',
  targets: 'B0SIM00001\n\nB0SIM00002\nB0SIM00001\n',
  ...patch,
});

describe('the rule editor', () => {
  it('offers only the operations that apply to the field', () => {
    expect(opsForField('price')).toEqual(['changed', 'dropsBy', 'risesBy', 'below', 'above']);
    expect(opsForField('inStock')).toEqual(['changed', 'becomesUnavailable', 'becomesAvailable']);
    expect(opsForField('organicRank')).toEqual(['changed', 'dropsBy', 'risesBy', 'below', 'above', 'entersTop', 'leavesTop']);
    expect(opsForField('availability')).toEqual(['changed']);
  });

  it('keeps what still fits when the field or operation changes, and clears what does not', () => {
    const drop = { field: 'price' as const, op: 'dropsBy' as const, value: '10', confirm: true };
    expect(withField(drop, 'rating')).toEqual({ field: 'rating', op: 'dropsBy', value: '10', confirm: true });
    expect(withField(drop, 'inStock')).toEqual({ field: 'inStock', op: 'changed', value: '', confirm: true });
    expect(withOp(drop, 'risesBy')).toEqual({ ...drop, op: 'risesBy' });
    expect(withOp(drop, 'below')).toEqual({ ...drop, op: 'below', value: '' });
    expect(withOp({ ...drop, field: 'organicRank' }, 'entersTop')).toEqual({ ...drop, field: 'organicRank', op: 'entersTop', value: '10' });
  });

  it('reads a row as the API rule, in words as the form shows it, or says what to fix', () => {
    const read = ruleOf({ field: 'price', op: 'dropsBy', value: ' 12.5 ', confirm: true });
    expect(read).toEqual({ rule: { field: 'price', op: 'dropsBy', value: 12.5, confirm: true } });
    expect('rule' in read && ruleInWords(read.rule)).toBe('when price drops by 12.5 %, confirmed by a second check');
    expect(ruleOf({ field: 'inStock', op: 'becomesUnavailable', value: '7', confirm: false })).toEqual({
      rule: { field: 'inStock', op: 'becomesUnavailable' },
    });
    expect(ruleOf({ field: 'price', op: 'dropsBy', value: '', confirm: false })).toEqual({ error: 'Give a percentage.' });
    expect(ruleOf({ field: 'price', op: 'dropsBy', value: '120', confirm: false })).toEqual({ error: 'Give a percentage above 0 and at most 100.' });
    expect(ruleOf({ field: 'organicRank', op: 'entersTop', value: '2.5', confirm: false })).toEqual({ error: 'Give a whole number of places from 1 to 500.' });
    expect(ruleOf({ field: 'price', op: 'below', value: '-3', confirm: false })).toEqual({ rule: { field: 'price', op: 'below', value: -3 } });
  });
});

describe('the monitor editor as a request body', () => {
  it('builds the create body: targets de-duplicated, the rules’ fields watched, the schedule, quiet time and budget', () => {
    const read = bodyOf(
      draft({
        domain: ' amazon.de ',
        deliveryZip: '10115',
        watch: ['rating'],
        rules: [
          { field: 'price', op: 'dropsBy', value: '10', confirm: false },
          { field: 'inStock', op: 'becomesUnavailable', value: '', confirm: false },
        ],
        cooldownAmount: '12',
        cooldownUnit: 'h',
        maxCreditsPerMonth: '500',
      }),
    );
    expect(read).toEqual({
      body: {
        name: 'Headphones',
        type: 'details',
        targets: ['B0SIM00001', 'B0SIM00002'],
        domain: 'amazon.de',
        deliveryZip: '10115',
        every: '6h',
        watch: ['rating', 'price', 'inStock'],
        rules: [
          { field: 'price', op: 'dropsBy', value: 10 },
          { field: 'inStock', op: 'becomesUnavailable' },
        ],
        cooldown: '12h',
        maxCreditsPerMonth: 500,
      },
    });
  });

  it('a cron monitor carries its zone; a paused start is enabled false; the storefront defaults to amazon.com', () => {
    const read = bodyOf(draft({ schedule: 'cron', cron: ' 0 6 * * 1 ', timezone: 'Europe/Berlin', startPaused: true }));
    expect(read).toMatchObject({ body: { cron: '0 6 * * 1', timezone: 'Europe/Berlin', enabled: false, domain: 'amazon.com' } });
    expect('body' in read && 'every' in read.body).toBe(false);
  });

  it('says the first thing to fix', () => {
    expect(bodyOf(draft({ name: '  ' }))).toEqual({ error: 'Give the monitor a name.' });
    expect(bodyOf(draft({ targets: '\n \n' }))).toEqual({ error: 'Give at least one ASIN or product URL.' });
    expect(bodyOf(draft({ rules: [] }))).toEqual({ error: 'Add at least one rule.' });
    expect(bodyOf(draft({ rules: [{ field: 'price', op: 'dropsBy', value: '0', confirm: false }] }))).toEqual({
      error: 'Rule 1: Give a percentage above 0 and at most 100.',
    });
    expect(bodyOf(draft({ everyAmount: '0' }))).toEqual({ error: 'Give how often as a whole number of minutes, hours or days.' });
    expect(bodyOf(draft({ maxCreditsPerMonth: '1.5' }))).toEqual({ error: 'Give the monthly budget as a whole number of credits, or leave it empty.' });
  });

  it('edits as a PATCH: the type left out, a removed ZIP or budget sent as null', () => {
    const read = bodyOf(draft({ deliveryZip: '', maxCreditsPerMonth: '' }));
    if (!('body' in read)) throw new Error(read.error);
    const patch = updateOf(read.body);
    expect(patch).not.toHaveProperty('type');
    expect(patch).toMatchObject({ deliveryZip: null, maxCreditsPerMonth: null, every: '6h', name: 'Headphones' });
  });
});

const monitor: Monitor = {
  id: 'mon_1',
  projectId: 'prj_1',
  organizationId: 'org_1',
  name: 'Cables',
  type: 'search',
  targets: ['usb c cable'],
  domain: 'amazon.de',
  deliveryZip: null,
  every: null,
  cron: '0 6 * * *',
  timezone: 'Europe/Berlin',
  watch: ['organicRank', 'page'],
  rules: [{ field: 'organicRank', op: 'entersTop', value: 3, confirm: true }],
  cooldown: '0m',
  maxCreditsPerMonth: null,
  credits: { month: '2026-03', used: 10, perRun: 5 },
  status: 'paused',
  pausedReason: 'budget_exhausted',
  pausedAt: null,
  resumesAt: null,
  nextRunAt: null,
  lastRunAt: null,
  lastJobId: null,
  lastError: null,
  lastTriggeredAt: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
};

describe('a monitor in words', () => {
  it('says its schedule, spend and status', () => {
    expect(scheduleInWords({ every: '6h', cron: null, timezone: null })).toBe('Every 6 hours');
    expect(scheduleInWords({ every: '1d', cron: null, timezone: null })).toBe('Every day');
    expect(scheduleInWords({ every: '15m', cron: null, timezone: null })).toBe('Every 15 minutes');
    expect(scheduleInWords(monitor)).toBe('At 06:00, every day (Europe/Berlin)');
    expect(creditsInWords(monitor)).toBe('10 credits this month (5 per run)');
    expect(creditsInWords({ ...monitor, maxCreditsPerMonth: 50 })).toBe('10 of 50 credits this month (5 per run)');
    expect(statusInWords(monitor)).toBe('paused: monthly budget used up');
    expect(statusInWords({ status: 'active', pausedReason: null })).toBe('active');
  });

  it('opens an existing monitor in the editor as it is', () => {
    const opened = draftOf(monitor);
    expect(opened).toMatchObject({
      type: 'search',
      schedule: 'cron',
      cron: '0 6 * * *',
      timezone: 'Europe/Berlin',
      cooldownAmount: '0',
      cooldownUnit: 'm',
      maxCreditsPerMonth: '',
    });
    expect(opened.rules).toEqual([{ field: 'organicRank', op: 'entersTop', value: '3', confirm: true }]);
    const read = bodyOf(opened);
    expect(read).toMatchObject({ body: { rules: monitor.rules, watch: ['organicRank', 'page'], cooldown: '0m', enabled: false } });
  });

  it("links an event to its product's history on its storefront, with the ZIP of a product monitor", () => {
    expect(eventProductHref({ subject: { kind: 'product', marketplace: 'amazon.de', asin: 'B0SIM00001', zip: '10115' } })).toBe(
      '/products/B0SIM00001?domain=amazon.de&zip=10115',
    );
    expect(eventProductHref({ subject: { kind: 'rank', marketplace: 'amazon.com', keyword: 'usb c cable', asin: 'B0SIM00002' } })).toBe(
      '/products/B0SIM00002?domain=amazon.com',
    );
  });
});
