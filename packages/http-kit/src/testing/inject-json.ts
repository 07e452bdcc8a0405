import type { FastifyInstance } from 'fastify';

export interface JsonRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  /** A raw body sent as is (for malformed-JSON tests). */
  payload?: string;
  headers?: Record<string, string>;
}

export interface JsonResponse<T = any> {
  status: number;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: T;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

/** One in-process request through the full route pipeline, JSON in and out (for tests). */
export async function injectJson<T = any>(app: FastifyInstance, request: JsonRequest): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...request.headers };
  let payload = request.payload;
  if (request.body !== undefined) {
    payload = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method: request.method, url: request.url, headers, ...(payload === undefined ? {} : { payload }) });
  let body: unknown;
  try {
    body = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, body: body as T, text: response.body, headers: response.headers };
}
