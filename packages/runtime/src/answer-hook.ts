import type { FastifyInstance } from 'fastify';

/**
 * Every answer carries its request id, and leaves only once the writes it may tell of are
 * committed (stores that commit writes in groups, the embedded one). One callback hook, done at
 * once unless a commit is pending: it runs on every answer.
 */
export function registerAnswerHook(app: FastifyInstance, pendingCommits: () => Promise<unknown>[] | undefined): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    const commits = pendingCommits();
    if (!commits) return done(null, payload);
    Promise.all(commits).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
