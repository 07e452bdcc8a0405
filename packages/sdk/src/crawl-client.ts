import { HealthRoutes, type HealthResponse, type DailyCredits, type RouteSpec, type Usage } from '@crawl/contracts';
import { type CallOptions, Transport, type TransportOptions } from './http/transport.ts';
import { AdminApi } from './resources/admin-api.ts';
import { AuditApi } from './resources/audit-api.ts';
import { AuthApi } from './resources/auth-api.ts';
import { CreditsApi, getDailyCredits, getUsage, ReferralApi } from './resources/billing-api.ts';
import { DestinationsApi } from './resources/destinations-api.ts';
import { HistoryApi } from './resources/history-api.ts';
import { JobsApi } from './resources/jobs-api.ts';
import { MonitorsApi } from './resources/monitors-api.ts';
import { ProjectsApi } from './resources/projects-api.ts';
import { SchedulesApi } from './resources/schedules-api.ts';
import { TargetListsApi } from './resources/target-lists-api.ts';
import { WebhooksApi } from './resources/webhooks-api.ts';
import type { RouteInput, RouteOutput } from './route-types.ts';

export type CrawlClientOptions = TransportOptions;

/**
 * The crawl data service API, one method per public route, typed from the contracts' schemas.
 *
 * ```ts
 * const crawl = new CrawlClient({ baseUrl: 'http://localhost:3000', token });
 * const job = await crawl.jobs.create(projectId, { type: 'search', targets: ['usb-c cable'] });
 * await crawl.jobs.wait(job.id, { onProgress: ({ progress }) => console.log(progress) });
 * ```
 */
export class CrawlClient {
  readonly auth: AuthApi;
  readonly projects: ProjectsApi;
  readonly jobs: JobsApi;
  readonly schedules: SchedulesApi;
  readonly webhooks: WebhooksApi;
  /** S3-compatible buckets finished jobs are written to; a job's deliveries are `jobs.deliveries`. */
  readonly destinations: DestinationsApi;
  readonly history: HistoryApi;
  readonly monitors: MonitorsApi;
  readonly targetLists: TargetListsApi;
  readonly audit: AuditApi;
  readonly credits: CreditsApi;
  readonly referral: ReferralApi;
  readonly admin: AdminApi;
  private readonly transport: Transport;

  constructor(options: CrawlClientOptions) {
    this.transport = new Transport(options);
    this.auth = new AuthApi(this.transport);
    this.projects = new ProjectsApi(this.transport);
    this.jobs = new JobsApi(this.transport);
    this.schedules = new SchedulesApi(this.transport);
    this.webhooks = new WebhooksApi(this.transport);
    this.destinations = new DestinationsApi(this.transport);
    this.history = new HistoryApi(this.transport);
    this.monitors = new MonitorsApi(this.transport);
    this.targetLists = new TargetListsApi(this.transport);
    this.audit = new AuditApi(this.transport);
    this.credits = new CreditsApi(this.transport);
    this.referral = new ReferralApi(this.transport);
    this.admin = new AdminApi(this.transport);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The token requests carry now (set by the options, or by login, register and verifyHandoff). */
  get token(): string | undefined {
    return this.transport.currentToken();
  }

  setToken(token: string | undefined): void {
    this.transport.setToken(token);
  }

  /** Monthly limits, consumption, remaining allowance and credit balance of the caller's organization. */
  usage(options?: CallOptions): Promise<Usage> {
    return getUsage(this.transport, options);
  }

  /** Credits spent and added per UTC day of a month (`YYYY-MM`; the current month when absent), from the credit ledger. */
  dailyCredits(month?: string, options?: CallOptions): Promise<DailyCredits> {
    return getDailyCredits(this.transport, month, options);
  }

  /** The health report; an unhealthy service (503) returns its report too, with `status: 'error'`. */
  async health(options: CallOptions = {}): Promise<HealthResponse> {
    return this.transport.call(HealthRoutes.health, {}, { okStatuses: [503], ...options }) as Promise<HealthResponse>;
  }

  /** Any route of the contracts' tables, typed by its spec: the way to reach a route before it has a method here. */
  call<R extends RouteSpec>(route: R, input: RouteInput<R>, options?: CallOptions): Promise<RouteOutput<R>> {
    return this.transport.call(route, input, options);
  }
}
