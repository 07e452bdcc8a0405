import type { CrawlClient } from '@crawl/sdk';

export class NoProjectError extends Error {
  override readonly name = 'NoProjectError';
}

/**
 * The project a tool works in: the one named, else the server's default, else the caller's first
 * project (looked up once per server: a caller rarely gains a first project mid-session).
 */
export function projectResolver(client: CrawlClient, defaultProjectId: string | undefined): (given: string | undefined) => Promise<string> {
  let first: Promise<string> | undefined;
  return (given) => {
    if (given) return Promise.resolve(given);
    if (defaultProjectId) return Promise.resolve(defaultProjectId);
    first ??= client.projects.list({ limit: 1 }).then((projects) => {
      const project = projects[0];
      if (!project) throw new NoProjectError('The caller has no project: create one (POST /projects, or `crawl projects create`) or pass projectId');
      return project.id;
    });
    // A failed look-up is asked again next time.
    first.catch(() => {
      first = undefined;
    });
    return first;
  };
}
