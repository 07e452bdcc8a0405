import { describe, expect, expectTypeOf, it } from 'vitest';
import { crawlQueueDefinition, QUEUES, queueDefinition, webhookQueueDefinition, type CrawlTask, type DeliveryTask } from './index.ts';

const task: CrawlTask = { jobId: 'job_1', organizationId: 'org_1', projectId: 'prj_1', targetIndex: 0, type: 'search', value: 'lamp', config: { pages: 1 } };

describe('the queue catalogue', () => {
  it('gives every queue its own name', () => {
    const names = Object.values(QUEUES).map((queue) => queue.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('types each definition by its payload schema', () => {
    expectTypeOf(crawlQueueDefinition().parse).returns.toEqualTypeOf<CrawlTask>();
    expectTypeOf(webhookQueueDefinition().parse).returns.toEqualTypeOf<DeliveryTask>();
  });

  it('keeps the retry policy of the entry unless a caller overrides part of it', () => {
    expect(crawlQueueDefinition().retry).toEqual({ attempts: 3, backoffMs: 2_000, maxBackoffMs: 60_000 });
    expect(crawlQueueDefinition(1).retry).toEqual({ attempts: 1, backoffMs: 2_000, maxBackoffMs: 60_000 });
    expect(queueDefinition(QUEUES.webhookDeliveries, { maxBackoffMs: 5 }).retry).toEqual({ attempts: 3, backoffMs: 1_000, maxBackoffMs: 5 });
  });
});

describe('crawl task payloads', () => {
  const { parse } = crawlQueueDefinition();

  it('accepts a task as catalog writes it', () => {
    expect(parse(task)).toEqual(task);
  });

  it.each([
    ['no target index', { ...task, targetIndex: undefined }],
    ['a target index as text', { ...task, targetIndex: '0' }],
    ['an unknown job type', { ...task, type: 'browse' }],
    ['an empty value', { ...task, value: '' }],
  ])('rejects %s', (_name, payload) => {
    expect(() => parse(payload)).toThrow();
  });
});

describe('webhook delivery payloads', () => {
  const { parse } = webhookQueueDefinition();

  it('accepts a delivery and its claim, and drops anything else', () => {
    expect(parse({ deliveryId: 'dlv_1', claim: 'c1', extra: true })).toEqual({ deliveryId: 'dlv_1', claim: 'c1' });
  });

  it.each([
    ['null', null],
    ['text', 'dlv_1'],
    ['no claim', { deliveryId: 'dlv_1' }],
    ['no delivery id', { claim: 'c1' }],
    ['a numeric delivery id', { deliveryId: 1, claim: 'c1' }],
    ['a claim that is not text', { deliveryId: 'dlv_1', claim: { token: 'c1' } }],
  ])('rejects %s', (_name, payload) => {
    expect(() => parse(payload)).toThrow();
  });

  it('does not change the payload it was given', () => {
    const payload = { deliveryId: 'dlv_1', claim: 'c1', extra: true };
    parse(payload);
    expect(payload).toEqual({ deliveryId: 'dlv_1', claim: 'c1', extra: true });
  });
});
