import { ExportQuery } from '@crawl/contracts';
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool.ts';
import { JobId } from '../tool-inputs.ts';

const DEFAULT_MAX_BYTES = 64 * 1024;

/**
 * Reads at most `maxBytes` of the download and stops it there: a large export is not pulled
 * whole through the server to give a model its first lines.
 */
async function readUpTo(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - bytes));
      bytes = maxBytes;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    bytes += value.byteLength;
  }
  // `stream: true` on the last chunk too would keep a cut multi-byte character; dropping it is fine.
  const decoder = new TextDecoder();
  const text = chunks.map((chunk, i) => decoder.decode(chunk, { stream: i < chunks.length - 1 || truncated })).join('');
  return { text, truncated, bytes };
}

export function exportJob(options: { downloadBaseUrl: string | undefined }) {
  return defineTool({
    name: 'export_job',
    title: 'Export job results',
    description:
      "A finished job's results as a JSON or CSV file: its text up to `maxBytes` (`truncated` says whether there was more), and the download link (it needs the same bearer token). Counts against the monthly exports.",
    input: Type.Object(
      {
        jobId: JobId,
        ...ExportQuery.properties,
        maxBytes: Type.Optional(
          Type.Integer({ minimum: 1, maximum: 1024 * 1024, default: DEFAULT_MAX_BYTES, description: 'Most bytes of the file to include in the answer.' }),
        ),
      },
      { additionalProperties: false },
    ),
    readOnly: false,
    run: async ({ jobId, format = 'json', maxBytes = DEFAULT_MAX_BYTES }, { client, signal }) => {
      const download = await client.jobs.export(jobId, { format }, { signal });
      const { text, truncated, bytes } = await readUpTo(download.stream, maxBytes);
      const base = options.downloadBaseUrl ?? client.baseUrl;
      return {
        format,
        fileName: download.fileName,
        contentType: download.contentType,
        size: download.contentLength,
        downloadUrl: `${base}/jobs/${encodeURIComponent(jobId)}/export?format=${format}`,
        truncated,
        bytes,
        text,
      };
    },
  });
}
