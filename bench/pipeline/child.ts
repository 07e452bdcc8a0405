// Runs one bench script in a child process and returns the JSON object it prints last; killed at the timeout.
import { spawn } from 'node:child_process';

const NODE_FLAGS = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'];

export async function runChild<T>(script: string, args: string[], timeoutMs: number): Promise<T> {
  const child = spawn(process.execPath, [...NODE_FLAGS, script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0) throw new Error(`${script} exited ${code}${last ? `: ${last}` : ''}`);
  return JSON.parse(last) as T;
}

/** Peak resident set size of this process, sampled every 100 ms while `run` works. */
export async function withPeakRss<T>(run: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakRssMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

export interface CrawlRun {
  pagesPerSecond: number;
  pages: number;
  failed: number;
  peakRssMb: number;
  /** CPU of the crawler process (all threads) per page, ms. */
  cpuMsPerPage: number;
  /** CPU of its main thread alone (fetching, block checks, hand-off) per page, ms; where measured. */
  mainCpuMsPerPage?: number;
}
