import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportDownload } from '@crawl/sdk';
import cliProgress from 'cli-progress';
import type { Output } from '../output/output.ts';
import { formatBytes } from '../output/format.ts';

export interface DownloadResult {
  bytes: number;
  lines: number;
}

/**
 * Writes the export to `file` (or stdout when `file` is undefined), with a progress bar on a
 * terminal. The server streams without a length, so the bar counts lines against the rows the
 * job has; a file is written under `.part` and renamed when complete, so a broken download never
 * looks like a finished one.
 */
export async function downloadTo(download: ExportDownload, file: string | undefined, output: Output, expectedRows: number): Promise<DownloadResult> {
  const counted: DownloadResult = { bytes: 0, lines: 0 };
  const bar = output.interactive && file !== undefined ? progressBar(output, download, expectedRows) : undefined;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counted.bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) counted.lines++;
      bar?.update(Math.min(download.contentLength ?? counted.lines, bar.getTotal()), { bytes: formatBytes(counted.bytes) });
      callback(null, chunk);
    },
  });
  const source = Readable.fromWeb(download.stream as import('node:stream/web').ReadableStream<Uint8Array>);
  try {
    if (file === undefined) {
      await pipeline(source, counter, output.stdout as Writable, { end: false });
    } else {
      const partial = `${file}.part`;
      try {
        await pipeline(source, counter, createWriteStream(partial, { mode: 0o644 }));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    }
  } finally {
    if (bar) {
      bar.update(bar.getTotal(), { bytes: formatBytes(counted.bytes) });
      bar.stop();
    }
  }
  return counted;
}

function progressBar(output: Output, download: ExportDownload, expectedRows: number): cliProgress.SingleBar {
  const bar = new cliProgress.SingleBar({
    stream: output.stderr,
    hideCursor: true,
    barsize: 30,
    barCompleteChar: '\u2588',
    barIncompleteChar: '\u2591',
    format: download.contentLength === undefined ? '{bar} {percentage}% | {value}/{total} lines | {bytes}' : '{bar} {percentage}% | {bytes}',
  });
  // Header line (CSV) or the brackets (JSON) come on top of the rows.
  const total = download.contentLength ?? Math.max(1, expectedRows + (download.format === 'csv' ? 1 : 2));
  bar.start(total, 0, { bytes: '0 B' });
  return bar;
}
