import type { DeliveryTask, WebhookDisabledReason } from '@crawl/contracts';
import type { WebhookMetrics } from '@crawl/metrics';
import type { Clock } from '@crawl/clock';
import { retryAfterMs } from '@crawl/service-client';
import type { Logger } from '../shared/ports.ts';
import type { AuditLog } from '../audit/index.ts';
import { checkWebhookUrl, WebhookUrlError, type Resolver, type UrlRules } from './address-guard.ts';
import type { DeliveryRepository } from './delivery-repository.ts';
import { QUEUE_LEASE_MS } from './delivery-queue.ts';
import type { EndpointRepository } from './endpoint-repository.ts';
import type { EndpointService } from './endpoint-service.ts';
import type { Sender, SendResult } from './http-sender.ts';
import { nextRetryDelay } from './retry-policy.ts';
import { signedHeaders } from './signer.ts';
import type { AttemptDoc, DeliveryDoc, EndpointDoc } from './webhook-model.ts';

export interface DeliveryAttemptOptions {
  deliveries: DeliveryRepository;
  endpoints: EndpointRepository;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  metrics: WebhookMetrics;
  /** Opens the endpoint's signing secrets valid at an instant, current first. */
  secrets: Pick<EndpointService, 'signingSecrets'>;
  rules: UrlRules;
  resolver: Resolver;
  sender: Sender;
  random: () => number;
  timeoutMs: number;
  /** A continuous failure period this long disables the endpoint. */
  disableAfterMs: number;
}

/**
 * One attempt of one delivery (the queue handler): checks the claim, sends the signed request,
 * and records the outcome in the log with the next retry; keeps the endpoint's failure streak and
 * disables it on a 410 or after failing for `disableAfterMs`.
 */
export class DeliveryAttempt {
  readonly #options: DeliveryAttemptOptions;
  readonly #deliveries: DeliveryRepository;
  readonly #endpoints: EndpointRepository;

  constructor(options: DeliveryAttemptOptions) {
    this.#options = options;
    this.#deliveries = options.deliveries;
    this.#endpoints = options.endpoints;
  }

  async run({ deliveryId, claim }: DeliveryTask): Promise<void> {
    const { clock, timeoutMs } = this.#options;
    const startedAt = clock.now();
    const delivery = await this.#deliveries.startAttempt(deliveryId, claim, new Date(startedAt.getTime() + timeoutMs + QUEUE_LEASE_MS).toISOString());
    if (!delivery) return; // replayed, reclaimed or deleted meanwhile
    const endpoint = await this.#endpoints.findOwned(delivery.organizationId, delivery.endpointId);
    if (!endpoint?.enabled) {
      await this.#deliveries.failUnsent(deliveryId, claim, endpoint ? 'endpoint disabled' : 'endpoint deleted', clock.now().toISOString());
      return;
    }
    const result = await this.#send(endpoint, delivery, startedAt);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const attempt: AttemptDoc = {
      attempt: delivery.attemptCount + 1,
      at: startedAt.toISOString(),
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error ?? (ok ? null : `HTTP ${result.statusCode}`),
      responseBody: result.body,
      replay: delivery.replay,
    };
    const now = clock.now();
    const nowIso = now.toISOString();
    this.#record(delivery, ok, result.statusCode, attempt.error, now);
    // The endpoint is updated before the delivery: the delivery leaving `sending` is the last write.
    if (ok) {
      await this.#endpoints.recordSuccess(endpoint._id, nowIso);
      await this.#deliveries.recordAttempt(
        deliveryId,
        claim,
        attempt,
        { status: 'delivered', deliveredAt: nowIso, nextAttemptAt: null, lastError: null },
        nowIso,
      );
      return;
    }
    if (result.statusCode === 410) {
      await this.#endpoints.recordFailure(endpoint._id, nowIso);
      await this.#disable(endpoint, { code: 'gone', message: `The endpoint answered 410 Gone at ${nowIso}; deliveries stopped.`, at: nowIso });
      await this.#deliveries.recordAttempt(
        deliveryId,
        claim,
        attempt,
        { status: 'failed', nextAttemptAt: null, lastError: 'HTTP 410: the endpoint is gone' },
        nowIso,
      );
      return;
    }
    const failing = await this.#endpoints.recordFailure(endpoint._id, nowIso);
    let disabled = false;
    if (failing?.enabled && failing.failingSince && now.getTime() - Date.parse(failing.failingSince) >= this.#options.disableAfterMs) {
      disabled = await this.#disable(failing, {
        code: 'failing',
        message: `Every delivery attempt failed since ${failing.failingSince} (${failing.consecutiveFailures} attempts in a row); last error: ${attempt.error}`,
        at: nowIso,
      });
    }
    const retryAfter = retryAfterMs(result.headers['retry-after'], now.getTime());
    const delay = disabled ? null : nextRetryDelay(delivery.cycleAttempts + 1, { retryAfterMs: retryAfter, random: this.#options.random });
    if (delay === null) this.#options.metrics.webhookAttempt('exhausted', undefined);
    const nextAttemptAt = delay === null ? null : new Date(now.getTime() + delay).toISOString();
    await this.#deliveries.recordAttempt(
      deliveryId,
      claim,
      attempt,
      { status: delay === null ? 'failed' : 'pending', nextAttemptAt, lastError: attempt.error },
      nowIso,
    );
  }

  /** The attempt's business event and metrics (the retry decision comes later, `exhausted`). */
  #record(delivery: DeliveryDoc, ok: boolean, statusCode: number | null, error: string | null, now: Date): void {
    const lag = ok ? (now.getTime() - Date.parse(delivery.createdAt)) / 1000 : undefined;
    this.#options.metrics.webhookAttempt(ok ? 'delivered' : 'failed', lag);
    const line = {
      orgId: delivery.organizationId,
      deliveryId: delivery._id,
      eventType: delivery.eventType,
      attempt: delivery.attemptCount + 1,
      statusCode,
    };
    if (ok) this.#options.logger.info(line, 'webhook delivered');
    else this.#options.logger.warn({ ...line, error }, 'webhook delivery failed');
  }

  async #send(endpoint: EndpointDoc, delivery: DeliveryDoc, at: Date): Promise<SendResult> {
    const { rules, resolver, sender, timeoutMs } = this.#options;
    try {
      // Checked again at every attempt, after DNS resolution; the sender connects to these addresses.
      const { checked, addresses } = await checkWebhookUrl(endpoint.url, rules, resolver);
      const headers = signedHeaders(this.#options.secrets.signingSecrets(endpoint, at.toISOString()), delivery.eventId, at, delivery.body);
      return await sender({ url: checked.url, addresses, headers: { ...headers }, body: delivery.body, timeoutMs });
    } catch (error) {
      const message = error instanceof WebhookUrlError ? `refused: ${error.message}` : `not sent: ${error instanceof Error ? error.message : String(error)}`;
      return { statusCode: null, headers: {}, body: null, error: message, latencyMs: 0 };
    }
  }

  /** @returns true when this call disabled the endpoint. */
  async #disable(endpoint: EndpointDoc, reason: WebhookDisabledReason): Promise<boolean> {
    const disabled = await this.#endpoints.disable(endpoint._id, reason);
    if (!disabled) return false;
    await this.#deliveries.failPendingForEndpoint(endpoint.organizationId, endpoint._id, 'endpoint disabled', reason.at);
    this.#options.logger.warn({ endpointId: endpoint._id, organizationId: endpoint.organizationId, reason: reason.code }, 'webhook endpoint disabled');
    await this.#options.audit.recordQuietly({
      organizationId: endpoint.organizationId,
      actorUserId: 'system',
      action: 'webhook.disabled',
      resourceType: 'webhook',
      resourceId: endpoint._id,
      metadata: { reason: reason.code, message: reason.message },
    });
    return true;
  }
}
