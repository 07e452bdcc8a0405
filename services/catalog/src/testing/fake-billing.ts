import {
  CREDITS_PER_TARGET,
  type ConsumeExportBody,
  type ExportAllowance,
  type ReleaseBody,
  type Reservation,
  type ReserveBody,
  type SettleBody,
  type Settlement,
  type Usage,
} from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { BillingPort } from '../features/shared/ports.ts';

interface Account {
  available: number;
  reserved: number;
  spent: number;
  jobs: number;
  targets: number;
  exports: number;
}

/**
 * An in-memory stand-in for billing's internal API with the same semantics the contract states:
 * reserve is idempotent on the job id, quota and balance refusals are 403/402 AppErrors, settle
 * captures successes and releases the rest once.
 */
export class FakeBilling implements BillingPort {
  readonly accounts = new Map<string, Account>();
  readonly reservations = new Map<string, Reservation>();
  readonly settleCalls: SettleBody[] = [];
  readonly releaseCalls: Array<{ jobId: string } & ReleaseBody> = [];
  readonly exportCalls: ConsumeExportBody[] = [];
  limits = { jobsPerMonth: 100, targetsPerMonth: 10_000, exportsPerMonth: 100 };
  startingCredits = 1000;
  /** Makes the next settle calls throw (billing unreachable). */
  failSettles = 0;

  account(organizationId: string): Account {
    let account = this.accounts.get(organizationId);
    if (!account) {
      account = { available: this.startingCredits, reserved: 0, spent: 0, jobs: 0, targets: 0, exports: 0 };
      this.accounts.set(organizationId, account);
    }
    return account;
  }

  async reserve(body: ReserveBody): Promise<Reservation> {
    const existing = this.reservations.get(body.jobId);
    if (existing) return existing;
    const account = this.account(body.organizationId);
    if (account.jobs + 1 > this.limits.jobsPerMonth) throw errors.quotaExceeded('Monthly job limit reached');
    if (account.targets + body.targetCount > this.limits.targetsPerMonth) throw errors.quotaExceeded('Monthly target limit reached');
    const perTarget = CREDITS_PER_TARGET[body.jobType] * (body.unitsPerTarget ?? 1);
    const credits = perTarget * body.targetCount;
    if (credits > account.available) throw errors.insufficientCredits(credits, account.available);
    account.available -= credits;
    account.reserved += credits;
    account.jobs += 1;
    account.targets += body.targetCount;
    const reservation: Reservation = {
      jobId: body.jobId,
      organizationId: body.organizationId,
      credits,
      creditsPerTarget: perTarget,
      targetCount: body.targetCount,
      status: 'held',
      captured: 0,
      released: 0,
      createdAt: new Date().toISOString(),
    };
    this.reservations.set(body.jobId, reservation);
    return reservation;
  }

  async release(jobId: string, body: ReleaseBody): Promise<Reservation> {
    this.releaseCalls.push({ jobId, ...body });
    const reservation = this.reservations.get(jobId);
    if (!reservation) throw errors.notFound('Reservation');
    if (reservation.status === 'held') {
      const account = this.account(reservation.organizationId);
      account.available += reservation.credits;
      account.reserved -= reservation.credits;
      account.jobs -= 1;
      account.targets -= reservation.targetCount;
      reservation.status = 'released';
      reservation.released = reservation.credits;
    }
    return reservation;
  }

  async settle(body: SettleBody): Promise<Settlement> {
    if (this.failSettles > 0) {
      this.failSettles -= 1;
      throw errors.unavailable('billing is down');
    }
    this.settleCalls.push(body);
    const reservation = this.reservations.get(body.jobId);
    if (!reservation) throw errors.notFound('Reservation');
    if (reservation.status !== 'held') return { jobId: body.jobId, captured: reservation.captured, released: reservation.released, alreadySettled: true };
    const account = this.account(reservation.organizationId);
    const captured = Math.min(reservation.credits, body.succeededTargets * reservation.creditsPerTarget);
    const released = reservation.credits - captured;
    account.reserved -= reservation.credits;
    account.spent += captured;
    account.available += released;
    Object.assign(reservation, { status: 'settled', captured, released });
    return { jobId: body.jobId, captured, released, alreadySettled: false };
  }

  async consumeExport(body: ConsumeExportBody): Promise<ExportAllowance> {
    const account = this.account(body.organizationId);
    if (account.exports >= this.limits.exportsPerMonth) throw errors.quotaExceeded('Monthly export limit reached');
    account.exports += 1;
    this.exportCalls.push(body);
    return { exportsThisMonth: account.exports, exportsPerMonth: this.limits.exportsPerMonth };
  }

  async usage(organizationId: string): Promise<Usage> {
    const account = this.account(organizationId);
    const used = { jobsThisMonth: account.jobs, targetsThisMonth: account.targets, exportsThisMonth: account.exports };
    const now = new Date();
    return {
      limits: { ...this.limits },
      used,
      remaining: {
        jobsPerMonth: this.limits.jobsPerMonth - used.jobsThisMonth,
        targetsPerMonth: this.limits.targetsPerMonth - used.targetsThisMonth,
        exportsPerMonth: this.limits.exportsPerMonth - used.exportsThisMonth,
      },
      credits: { available: account.available, reserved: account.reserved },
      charges: { chargedTargets: 0, unchargedTargets: 0 },
      month: now.toISOString().slice(0, 7),
      resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    };
  }

  settlementsFor(jobId: string): SettleBody[] {
    return this.settleCalls.filter((call) => call.jobId === jobId);
  }
}
