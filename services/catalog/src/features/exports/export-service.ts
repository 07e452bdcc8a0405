import type { Readable } from 'node:stream';
import type { ExportFormat } from '@crawl/contracts';
import type { ResultJob, ResultStore } from '../results/result-service.ts';
import { csvExport, jsonTextExport } from './export-stream.ts';

/**
 * The export file of a job's results, streamed in results order along the `(jobId, position)`
 * index. JSON passes the stored item JSON through unparsed. CSV takes its header from the
 * per-target column records and reads the rows once; for rows written before those records
 * existed it collects the names in a first pass instead (same output either way).
 */
export async function exportJobResults(results: ResultStore, job: ResultJob, format: ExportFormat): Promise<Readable> {
  if (format === 'json') return jsonTextExport(() => results.itemJson(job._id));
  const columns = await results.csvColumns(job);
  return csvExport(() => results.items(job._id), columns ?? undefined);
}
