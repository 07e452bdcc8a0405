// The baseline of the read-path figures (child process): a bare Fastify 5 app with a Bearer-JWT
// check (HS256 with fast-jwt, the library under @fastify/jwt and the gateway) and one route,
// `GET /jobs/:id`, answering the very body the service answered for the bench's job: the same
// response size class, nothing else (no logging, no security headers, no store).
//
// Env: PORT, BARE_JWT_SECRET, BARE_BODY (the JSON body to answer). Listens on 127.0.0.1.
import { createVerifier } from 'fast-jwt';
import Fastify from 'fastify';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`bare read server: ${name} is not set`);
  return value;
}

const port = Number(required('PORT'));
const body = JSON.parse(required('BARE_BODY')) as unknown;
const verify = createVerifier({ key: required('BARE_JWT_SECRET'), algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });

const app = Fastify({ logger: false });

app.get('/ready', async () => ({ ready: true }));

app.get<{ Params: { id: string } }>('/jobs/:id', async (request, reply) => {
  try {
    verify(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
  } catch {
    return reply.code(401).send({ error: 'unauthorized' });
  }
  return body;
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

await app.listen({ host: '127.0.0.1', port });
