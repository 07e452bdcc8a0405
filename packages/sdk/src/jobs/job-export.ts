import type { ExportFormat } from '@crawl/contracts';

/** A job's export as it downloads: the file as a web stream, with what the answer's headers say about it. */
export interface ExportDownload {
  format: ExportFormat;
  /** The file's bytes; read it once (pipe it to a file, a Response, or a TextDecoderStream). */
  stream: ReadableStream<Uint8Array>;
  contentType: string;
  /** From `Content-Disposition`, e.g. `job-123.csv`. */
  fileName: string | undefined;
  /** Undefined when the server streams without announcing the size (it usually does). */
  contentLength: number | undefined;
}

export function exportDownload(format: ExportFormat, response: Response): ExportDownload {
  const length = response.headers.get('content-length');
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  return {
    format,
    stream: response.body ?? new ReadableStream({ start: (controller) => controller.close() }),
    contentType: response.headers.get('content-type') ?? '',
    fileName,
    contentLength: length === null ? undefined : Number(length),
  };
}
