import {
  BillingRoutes,
  type CheckoutBody,
  type DailyCredits,
  type CreditPackage,
  type ReferralClickBody,
  type ReferralStats,
  type Usage,
} from '@crawl/contracts';
import type { CallOptions, Transport } from '../http/transport.ts';
import type { RouteData } from '../route-types.ts';

export type CheckoutResult = RouteData<typeof BillingRoutes.checkout>;
export type ReferralCode = RouteData<typeof BillingRoutes.referralCode>;
export type ReferralLinkAnswer = RouteData<typeof BillingRoutes.referralLink>;

/** Credit packages and checkout: these routes need a dashboard token (`auth.verifyHandoff({audience: 'dashboard'})`). */
export class CreditsApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  async packages(options?: CallOptions): Promise<CreditPackage[]> {
    return (await this.transport.call(BillingRoutes.creditPackages, {}, options)).data;
  }

  async checkout(body: CheckoutBody, options?: CallOptions): Promise<CheckoutResult> {
    return (await this.transport.call(BillingRoutes.checkout, { body }, options)).data;
  }
}

export class ReferralApi {
  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  async code(options?: CallOptions): Promise<ReferralCode> {
    return (await this.transport.call(BillingRoutes.referralCode, {}, options)).data;
  }

  async click(body: ReferralClickBody, options?: CallOptions): Promise<{ recorded: boolean }> {
    return (await this.transport.call(BillingRoutes.referralClick, { body }, options)).data;
  }

  /**
   * Follows a referral link (`GET /referral/click?code=…`, the `link` of `code()`): records the
   * click and answers how to register with the code. Shares click()'s 5 per 10 seconds.
   */
  async follow(code: string, options?: CallOptions): Promise<ReferralLinkAnswer> {
    return (await this.transport.call(BillingRoutes.referralLink, { query: { code } }, options)).data;
  }

  async stats(options?: CallOptions): Promise<ReferralStats> {
    return (await this.transport.call(BillingRoutes.referralStats, {}, options)).data;
  }
}

/** Monthly limits, consumption, remaining allowance and credit balance of the caller's organization. */
export async function getUsage(transport: Transport, options?: CallOptions): Promise<Usage> {
  return (await transport.call(BillingRoutes.usage, {}, options)).data;
}

/** Credits spent and added per UTC day of a month (`YYYY-MM`; the current month when absent). */
export async function getDailyCredits(transport: Transport, month?: string, options?: CallOptions): Promise<DailyCredits> {
  return (await transport.call(BillingRoutes.dailyCredits, { query: month === undefined ? {} : { month } }, options)).data;
}
