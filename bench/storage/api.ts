// Set-up calls against the running service, through its public routes (register, projects, jobs)
// and catalog's worker route for reporting a target's items (with a service token, as the
// crawler-worker does). Nothing here is timed.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { CatalogPaths } from '@crawl/contracts';
import { InternalTokens, SERVICE_TOKEN_HEADER } from '@crawl/service-client';

const SETUP_TIMEOUT_MS = 120_000;

export const BENCH_PASSWORD = 'bench-storage-password-0123';

export interface Org {
  token: string;
  organizationId: string;
  email: string;
}

export interface JobView {
  id: string;
  status: string;
  resultCount: number;
  targets: { value: string; status: string }[];
}

export class Api {
  readonly base: string;
  readonly #tokens: InternalTokens;

  constructor(base: string, internalSecret: string) {
    this.base = base;
    this.#tokens = new InternalTokens(internalSecret);
  }

  async call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      // Set-up calls are bounded too: a saturated service fails the bench instead of hanging it.
      signal: AbortSignal.timeout(SETUP_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async #ok<T = any>(expected: number, method: string, path: string, options: Parameters<Api['call']>[2] = {}): Promise<T> {
    const res = await this.call<T>(method, path, options);
    if (res.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
    return res.body;
  }

  /** A new user and organization (the signup bonus and default limits come from the service's env). */
  async registerOrg(label: string): Promise<Org> {
    const email = `bench-${label}-${randomUUID().slice(0, 8)}@example.com`;
    const body = await this.#ok<{ accessToken: string }>(201, 'POST', '/auth/register', { body: { email, password: BENCH_PASSWORD, name: `Bench ${label}` } });
    const claims = JSON.parse(Buffer.from(body.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { org: string };
    return { token: body.accessToken, organizationId: claims.org, email };
  }

  async createProject(org: Org, name: string): Promise<string> {
    const body = await this.#ok<{ data: { id: string } }>(201, 'POST', '/projects', { token: org.token, body: { name } });
    return body.data.id;
  }

  async createJob(org: Org, projectId: string, targets: string[]): Promise<JobView> {
    const body = await this.#ok<{ data: JobView }>(201, 'POST', `/projects/${projectId}/jobs`, { token: org.token, body: { type: 'search', targets } });
    return body.data;
  }

  async getJob(org: Org, jobId: string): Promise<JobView> {
    return (await this.#ok<{ data: JobView }>(200, 'GET', `/jobs/${jobId}`, { token: org.token })).data;
  }

  async countJobs(org: Org, projectId: string): Promise<number> {
    const body = await this.#ok<{ meta: { total: number } }>(200, 'GET', `/projects/${projectId}/jobs?limit=1`, { token: org.token });
    return body.meta.total;
  }

  async resultsPage(org: Org, jobId: string, page: number, pageSize: number): Promise<{ items: unknown[]; total: number; nextCursor: string | null }> {
    const body = await this.#ok<{ data: { items: unknown[]; pagination: { total: number; nextCursor?: string | null } } }>(
      200,
      'GET',
      resultsPath(jobId, page, pageSize),
      {
        token: org.token,
      },
    );
    return { items: body.data.items, total: body.data.pagination.total, nextCursor: body.data.pagination.nextCursor ?? null };
  }

  /** Reports a target's items as the crawler-worker does (catalog's internal route, service token). */
  async reportTarget(jobId: string, index: number, items: Record<string, unknown>[]): Promise<{ jobStatus: string; finished: boolean }> {
    const body = await this.#ok<{ data: { jobStatus: string; finished: boolean } }>(200, 'POST', CatalogPaths.reportTarget(jobId, index), {
      body: { status: 'success', items, requests: 1 },
      headers: { [SERVICE_TOKEN_HEADER]: this.#tokens.signService('crawler-worker') },
    });
    return body.data;
  }

  /** Downloads the export and consumes the body. @returns wall time to the last byte, and the size. */
  exportJob(org: Org, jobId: string, format: 'csv' | 'json'): Promise<{ ms: number; bytes: number }> {
    return download(`${this.base}/jobs/${jobId}/export?format=${format}`, org.token);
  }
}

/** A results page by number (`page`, offset paging). */
export function resultsPath(jobId: string, page: number, pageSize: number): string {
  return `/jobs/${jobId}/results?page=${page}&pageSize=${pageSize}`;
}

/** The results after a `pagination.nextCursor` (cursor paging, where the service offers it). */
export function cursorPath(jobId: string, cursor: string, pageSize: number): string {
  return `/jobs/${jobId}/results?cursor=${encodeURIComponent(cursor)}&pageSize=${pageSize}`;
}

/** `pagination.nextCursor` of a results response, read without parsing the whole body. */
const NEXT_CURSOR = /"nextCursor":(?:null|"([^"]*)")/;
export function nextCursorOf(body: string): string | null {
  return NEXT_CURSOR.exec(body)?.[1] ?? null;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * GET with node:http (the least client-side work per chunk), the body read to the end and counted:
 * time from request to the last byte. The export figure times both the service and the bare server
 * with this.
 */
export function download(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolveDownload, reject) => {
    const start = performance.now();
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
        else resolveDownload({ ms: performance.now() - start, bytes });
      });
      res.on('error', reject);
    });
    req.setTimeout(300_000, () => req.destroy(new Error(`GET ${url}: timed out`)));
    req.on('error', reject);
  });
}
