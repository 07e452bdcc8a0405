import { HistoryRoutes } from '@crawl/contracts';
import { callerOf, routeFromSpec } from '@crawl/http-kit';
import type { FastifyInstance } from 'fastify';
import type { HistoryService } from './history-service.ts';

/** A product's history and latest values, a keyword's ranks: the caller's organization's observations only. */
export function historyRoutes(app: FastifyInstance, history: HistoryService): void {
  routeFromSpec(app, HistoryRoutes.productHistory, async (request) => ({
    data: await history.productHistory(callerOf(request).organizationId, request.params.asin, request.query),
  }));
  routeFromSpec(app, HistoryRoutes.productLatest, async (request) => ({
    data: await history.productLatest(callerOf(request).organizationId, request.params.asin, request.query),
  }));
  routeFromSpec(app, HistoryRoutes.keywordRanks, async (request) => ({
    data: await history.keywordRanks(callerOf(request).organizationId, request.params.keyword, request.query),
  }));
}
