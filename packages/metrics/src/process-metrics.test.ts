import { describe, expect, it } from 'vitest';
import { BoundedLabel, statusClass } from './bounded-label.ts';
import { ProcessMetrics } from './process-metrics.ts';

describe('BoundedLabel', () => {
  it('keeps known values, admits a capped number of others, and calls the rest other', () => {
    const label = new BoundedLabel(['blocked'], 2);
    expect(label.of('blocked')).toBe('blocked');
    expect(label.of('a')).toBe('a');
    expect(label.of('b')).toBe('b');
    expect(label.of('c')).toBe('other');
    expect(label.of('a')).toBe('a');
    expect(label.of(undefined)).toBe('none');
  });

  it('names status classes', () => {
    expect([statusClass(204), statusClass(404), statusClass(503), statusClass(99)]).toEqual(['2xx', '4xx', '5xx', 'other']);
  });
});

describe('ProcessMetrics', () => {
  it('renders every family, with values bounded whatever callers pass', async () => {
    const metrics = new ProcessMetrics({ defaultMetrics: false });
    metrics.jobCreated('search');
    metrics.jobFinished('search', 'completed', 3);
    for (let i = 0; i < 100; i += 1) metrics.upstreamRequest({ domain: `host-${i}.example`, status: 200, bytes: 10, seconds: 0.1, egress: `proxy-${i}` });
    metrics.targetFinished('search', 'failed', 'job_0123 not a reason');
    metrics.pageCacheLookup('details', true);
    metrics.pageCacheLookup('details', true);
    metrics.pageCacheLookup('search', false);
    metrics.watchQueue('crawl-targets', async () => ({ waiting: 4, active: 1, delayed: 0, failed: 2 }));
    const { body, contentType } = await metrics.render();
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain('crawl_jobs_created_total{type="search"} 1');
    expect(body).toContain('crawl_job_duration_seconds_count{type="search",status="completed"} 1');
    expect(body).toContain('crawl_queue_depth{queue="crawl-targets",state="waiting"} 4');
    // 32 domains at most, then `other`: 100 callers' hosts make 33 series, not 100.
    const domains = new Set([...body.matchAll(/crawl_upstream_requests_total\{domain="([^"]+)"/g)].map((m) => m[1]));
    expect(domains.size).toBe(33);
    expect(domains.has('other')).toBe(true);
    expect(body).toContain('crawl_targets_finished_total{type="search",outcome="failed",reason="other"} 1');
    expect(body).toContain('crawl_cache_hits_total{type="details"} 2');
    expect(body).toContain('crawl_cache_misses_total{type="search"} 1');
  });

  it("reports each queue's oldest waiting age in seconds at scrape time, 0 when nothing waits, nothing when the backend fails", async () => {
    const metrics = new ProcessMetrics({ defaultMetrics: false });
    const depth = async () => ({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    let age: number | undefined = 90_500;
    metrics.watchQueue('crawl-targets', depth, async () => age);
    metrics.watchQueue('webhook-deliveries', depth, async () => {
      throw new Error('redis down');
    });
    metrics.watchQueue('no-age', depth);
    const first = (await metrics.render()).body;
    expect(first).toContain('crawl_queue_oldest_waiting_seconds{queue="crawl-targets"} 90.5');
    expect(first).not.toContain('crawl_queue_oldest_waiting_seconds{queue="webhook-deliveries"}');
    expect(first).not.toContain('crawl_queue_oldest_waiting_seconds{queue="no-age"}');
    age = undefined;
    expect((await metrics.render()).body).toContain('crawl_queue_oldest_waiting_seconds{queue="crawl-targets"} 0');
  });
});
