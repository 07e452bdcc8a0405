// The bare export server (child process; started by bare.ts): a Fastify 5 app with nothing but a
// Bearer-JWT check (HS256, fast-jwt as in the gateway) and two routes streaming the same rows the
// bench reported to the service, held in memory: the baseline of the export figure ("a bare Fastify + JWT route").
//
// Env: PORT, BARE_JWT_SECRET, BARE_LABEL / BARE_ROWS / BARE_ITEMS_PER_REPORT (the rows are
// regenerated with the bench's deterministic generator from these). Listens on 127.0.0.1.
import { createVerifier } from 'fast-jwt';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { csvColumns, csvStream, jsonStream, resultTargets } from './rows.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`bare export server: ${name} is not set`);
  return value;
}

const port = Number(required('PORT'));
const items = resultTargets(required('BARE_LABEL'), Number(required('BARE_ROWS')), Number(required('BARE_ITEMS_PER_REPORT'))).flatMap((t) => t.items);
const columns = csvColumns(items);

const app = Fastify({ logger: false });
const verify = createVerifier({ key: required('BARE_JWT_SECRET'), algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });

// Readiness (no token): answers once the rows are generated and the server listens.
app.get('/ready', async () => ({ rows: items.length, columns: columns.length }));

const authenticated = {
  onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      verify(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
    } catch {
      return reply.code(401).send({ error: 'unauthorized' });
    }
  },
};

app.get('/export/csv', authenticated, async (_request, reply) => {
  reply.header('content-type', 'text/csv; charset=utf-8');
  return reply.send(csvStream(items, columns));
});

app.get('/export/json', authenticated, async (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.send(jsonStream(items));
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}

await app.listen({ host: '127.0.0.1', port });
