import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com) with the reference library:
 * secrets are `whsec_` + base64 of 24 random bytes; the signature is `v1,` +
 * base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)) and several signatures (one per valid
 * secret during a rotation) are separated by spaces. Generating and storing secrets stays ours.
 */

export const SECRET_PREFIX = 'whsec_';
/** Receivers reject timestamps further than this from their clock (replay protection). */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** Headers for one attempt, signed with every given secret (newest first). */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, body)).join(' '),
  };
}

/**
 * What a receiver does, against a given clock. Receivers should use `new Webhook(secret).verify`
 * from `standardwebhooks`, which reads the system clock; this variant lets tests that run the
 * service on a manual clock check what it sent (signer.test.ts holds both to the same answers).
 */
export function verify(
  secret: string,
  headers: Partial<Record<keyof SignedHeaders, string>>,
  body: string,
  now: Date,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const signatures = headers['webhook-signature'];
  if (!id || !signatures || !Number.isInteger(timestamp)) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  return signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * Encrypts signing secrets at rest (AES-256-GCM). The key is WEBHOOK_SECRETS_KEY or, when unset,
 * derived from the process's JWT secret with HKDF.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(material: string) {
    this.#key = Buffer.from(hkdfSync('sha256', material, 'crawl-data-service', 'webhook-signing-secrets', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64url')}.${data.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  open(sealed: string): string {
    const [version, iv, data, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || data === undefined || !tag) throw new Error('unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
