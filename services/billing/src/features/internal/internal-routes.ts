import { BillingPaths, ConsumeExportBody, OpenAccountBody, ReleaseBody, ReserveBody, SettleBody } from '@crawl/contracts';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Billing } from '../../billing.ts';

const JobParams = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 128 }) });
type JobParams = Static<typeof JobParams>;
/** The client's path builder encodes its argument, so the route pattern is spliced in afterwards. */
const RELEASE_ROUTE = BillingPaths.release('JOB_ID').replace('JOB_ID', ':jobId');

/** The internal billing API (contracts: internal-billing.ts), for auth and catalog only. */
export function internalRoutes(app: FastifyInstance, billing: Billing): void {
  const internal = { access: 'internal' as const };

  app.post(BillingPaths.openAccount, { config: internal, schema: { body: OpenAccountBody } }, async (request) => {
    const body = request.body as OpenAccountBody;
    const balance = await billing.openAccount(body.organizationId, body.ownerUserId, body.referralCode);
    return { data: { organizationId: body.organizationId, ...balance } };
  });

  app.post(BillingPaths.reserve, { config: internal, schema: { body: ReserveBody } }, async (request) => ({
    data: await billing.reservations.reserve(request.body as ReserveBody),
  }));

  app.post(RELEASE_ROUTE, { config: internal, schema: { body: ReleaseBody, params: JobParams } }, async (request) => {
    const { jobId } = request.params as JobParams;
    const body = request.body as ReleaseBody;
    return { data: await billing.reservations.release(jobId, body.organizationId, body.reason) };
  });

  app.post(BillingPaths.settle, { config: internal, schema: { body: SettleBody } }, async (request) => ({
    data: await billing.reservations.settle(request.body as SettleBody),
  }));

  app.post(BillingPaths.consumeExport, { config: internal, schema: { body: ConsumeExportBody } }, async (request) => ({
    data: await billing.consumeExport((request.body as ConsumeExportBody).organizationId),
  }));
}
