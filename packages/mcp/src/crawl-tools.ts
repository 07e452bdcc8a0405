import type { CrawlTool } from './tool.ts';
import { exportJob } from './tools/export-tool.ts';
import { keywordRanks, productHistory } from './tools/history-tools.ts';
import { createJob, estimateJob, jobResults, jobStatus, listProjects } from './tools/job-tools.ts';
import { createMonitor, listMonitors, runMonitor } from './tools/monitor-tools.ts';
import { getProduct, searchProducts } from './tools/product-tools.ts';

/** Every tool the server offers, in the order `tools/list` gives them. */
export function crawlTools(options: { downloadBaseUrl: string | undefined }): CrawlTool[] {
  return [
    searchProducts,
    getProduct,
    createJob,
    estimateJob,
    jobStatus,
    jobResults,
    exportJob(options),
    productHistory,
    keywordRanks,
    listMonitors,
    createMonitor,
    runMonitor,
    listProjects,
  ];
}
