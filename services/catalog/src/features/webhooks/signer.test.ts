import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { nextRetryDelay, RETRY_DELAYS_MS, MAX_ATTEMPTS } from './retry-policy.ts';
import { generateSecret, SecretBox, sign, signedHeaders, verify } from './signer.ts';

describe('Standard Webhooks signing', () => {
  it('matches the Standard Webhooks reference vector', () => {
    // From the Standard Webhooks reference libraries' tests.
    const signature = sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('sends exactly the bytes of the published format: v1, + base64 HMAC-SHA256 of id.timestamp.body', () => {
    // The format customers verify against, computed independently of the library.
    const wire = (secret: string, id: string, timestamp: number, body: string) =>
      `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
        .update(`${id}.${timestamp}.${body}`)
        .digest('base64')}`;
    const bodies = ['', '{"a":1}', '{"title":"Kaffee ☕ – 1.299,00 €"}', 'x'.repeat(10_000)];
    for (let i = 0; i < 50; i += 1) {
      const secret = generateSecret();
      const id = `evt_${randomBytes(8).toString('hex')}`;
      const timestamp = 1_700_000_000 + i * 7919;
      const body = bodies[i % bodies.length] as string;
      expect(sign(secret, id, timestamp, body)).toBe(wire(secret, id, timestamp, body));
    }
  });

  it("passes the Standard Webhooks library's verifier, for every secret of a rotation", () => {
    const [current, previous, other] = [generateSecret(), generateSecret(), generateSecret()];
    const body = '{"type":"job.completed","data":{"id":"job_1"}}';
    const headers = signedHeaders([current, previous], 'evt_1', new Date(), body);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
      expect(verify(secret, headers, body, new Date())).toBe(true);
    }
    expect(() => new Webhook(other).verify(body, { ...headers })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(current).verify(`${body} `, { ...headers })).toThrow(WebhookVerificationError);
    expect(verify(other, headers, body, new Date())).toBe(false);
    const stale = signedHeaders([current], 'evt_1', new Date(Date.now() - 6 * 60_000), body);
    expect(() => new Webhook(current).verify(body, { ...stale })).toThrow(/too old/);
    expect(verify(current, stale, body, new Date())).toBe(false);
  });

  it('generates whsec_ secrets of 24 random bytes', () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(generateSecret()).not.toBe(a);
  });

  it('signs with every given secret, space-separated, and each verifies', () => {
    const [current, previous, other] = [generateSecret(), generateSecret(), generateSecret()];
    const at = new Date('2026-03-02T08:00:00.000Z');
    const headers = signedHeaders([current, previous], 'evt_1', at, '{"a":1}');
    expect(headers['webhook-timestamp']).toBe(String(at.getTime() / 1000));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(current, headers, '{"a":1}', at)).toBe(true);
    expect(verify(previous, headers, '{"a":1}', at)).toBe(true);
    expect(verify(other, headers, '{"a":1}', at)).toBe(false);
  });

  it('fails on a tampered body, id or timestamp and outside the tolerance', () => {
    const secret = generateSecret();
    const at = new Date('2026-03-02T08:00:00.000Z');
    const headers = signedHeaders([secret], 'evt_1', at, '{"a":1}');
    expect(verify(secret, headers, '{"a":2}', at)).toBe(false);
    expect(verify(secret, { ...headers, 'webhook-id': 'evt_2' }, '{"a":1}', at)).toBe(false);
    expect(verify(secret, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) }, '{"a":1}', at)).toBe(false);
    expect(verify(secret, headers, '{"a":1}', new Date(at.getTime() + 5 * 60_000))).toBe(true);
    expect(verify(secret, headers, '{"a":1}', new Date(at.getTime() + 5 * 60_000 + 1000))).toBe(false);
    expect(verify(secret, headers, '{"a":1}', new Date(at.getTime() - 6 * 60_000))).toBe(false);
  });
});

describe('SecretBox', () => {
  it('round-trips, never stores the plain secret, and refuses another key or a modified box', () => {
    const box = new SecretBox('key-material-that-is-long-enough-0123456789');
    const secret = generateSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed);
    expect(() => new SecretBox('another-key-material-long-enough-0123456789').open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[2] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
  });
});

describe('retry policy', () => {
  it('makes 8 attempts over roughly a day', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * 3_600_000);
    expect(total).toBeLessThan(24 * 3_600_000);
    // Exponential-ish: every delay is longer than the one before.
    for (const [i, delay] of RETRY_DELAYS_MS.slice(1).entries()) expect(delay).toBeGreaterThan(RETRY_DELAYS_MS[i] as number);
  });

  it('jitters each delay by ±20% and stops after the last attempt', () => {
    expect(nextRetryDelay(1, { random: () => 0 })).toBe(24_000);
    expect(nextRetryDelay(1, { random: () => 0.5 })).toBe(30_000);
    expect(nextRetryDelay(1, { random: () => 1 })).toBe(36_000);
    expect(nextRetryDelay(7, { random: () => 0.5 })).toBe(12 * 3_600_000);
    expect(nextRetryDelay(8, { random: () => 0.5 })).toBeNull();
  });

  it('honours Retry-After, clamped to [1 s, 24 h]', () => {
    expect(nextRetryDelay(1, { retryAfterMs: 120_000 })).toBe(120_000);
    expect(nextRetryDelay(1, { retryAfterMs: 0 })).toBe(1_000);
    expect(nextRetryDelay(1, { retryAfterMs: 7 * 86_400_000 })).toBe(86_400_000);
    expect(nextRetryDelay(8, { retryAfterMs: 120_000 })).toBeNull();
  });
});
