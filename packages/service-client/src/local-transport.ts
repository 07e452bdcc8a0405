import type { FastifyInstance } from 'fastify';
import { withQuery, type ServiceRequest, type ServiceResponse, type ServiceTransport } from './service-transport.ts';

/** Same-process calls go through Fastify's `inject`: the full route pipeline, no socket. */
export class LocalTransport implements ServiceTransport {
  readonly kind = 'local' as const;
  readonly #app: () => FastifyInstance;

  constructor(app: () => FastifyInstance) {
    this.#app = app;
  }

  async send(request: ServiceRequest, headers: Record<string, string>): Promise<ServiceResponse> {
    const response = await this.#app().inject({
      method: request.method,
      url: withQuery(request.path, request.query),
      headers: request.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      payload: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const text = response.body;
    return { status: response.statusCode, headers: response.headers as ServiceResponse["headers"], body: text ? safeJson(text) : undefined };
  }
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
