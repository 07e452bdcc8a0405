import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { noStorePlugin } from './no-store.ts';

describe('noStorePlugin', () => {
  it('marks every answer of a noStore route, errors included, and no other route', async () => {
    const app = Fastify();
    await app.register(noStorePlugin);
    app.get('/token', { config: { noStore: true } }, async () => ({ token: 't' }));
    app.get('/refused', { config: { noStore: true }, onRequest: async () => Promise.reject(new Error('refused')) }, async () => ({}));
    app.get('/plain', async () => ({ ok: true }));
    try {
      const token = await app.inject({ url: '/token' });
      expect(token.headers).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
      const refused = await app.inject({ url: '/refused' });
      expect(refused.statusCode).toBe(500);
      expect(refused.headers).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
      const plain = await app.inject({ url: '/plain' });
      expect(plain.headers['cache-control']).toBeUndefined();
      expect(plain.headers.pragma).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
