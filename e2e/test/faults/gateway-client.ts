import { randomUUID } from 'node:crypto';

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

/** One HTTP call; a refused or reset connection comes back as status 0 instead of throwing. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Reply> {
  try {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body };
  } catch (error) {
    return { status: 0, headers: new Headers(), body: String(error) };
  }
}

/** A customer of the service: its organization, a token and one project to create jobs in. */
export interface Customer {
  gateway: string;
  token: string;
  organizationId: string;
  projectId: string;
}

export async function newCustomer(gateway: string, label: string): Promise<Customer> {
  const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
  const registered = await call(gateway, 'POST', '/auth/register', { body: { email, password: 'a-long-enough-password', name: label } });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const token = registered.body.accessToken as string;
  const me = await call(gateway, 'GET', '/auth/me', { token });
  const project = await call(gateway, 'POST', '/projects', { token, body: { name: label } });
  if (project.status !== 201) throw new Error(`project: ${project.status} ${JSON.stringify(project.body)}`);
  return { gateway, token, organizationId: me.body.data.organizationId, projectId: project.body.data.id };
}

export interface CrawlConfig {
  type: 'search' | 'details';
  targets: string[];
}

export function createJob(customer: Customer, config: CrawlConfig): Promise<Reply> {
  return call(customer.gateway, 'POST', `/projects/${customer.projectId}/jobs`, { token: customer.token, body: config });
}

/** Creates a job that must be accepted; returns its id. */
export async function createdJob(customer: Customer, config: CrawlConfig): Promise<string> {
  const created = await createJob(customer, config);
  if (created.status !== 201) throw new Error(`create job: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data.id as string;
}

export async function getJob(customer: Customer, jobId: string): Promise<any> {
  const reply = await call(customer.gateway, 'GET', `/jobs/${jobId}`, { token: customer.token });
  return reply.status === 200 ? reply.body.data : undefined;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
