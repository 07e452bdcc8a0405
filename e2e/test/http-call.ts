/** An answer as the tests read it: status, headers, the raw text and the JSON body when it is JSON. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** One request to a running service over real HTTP, JSON in and out, with a bearer token when given. */
export async function call(base: string, method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<Reply> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}
