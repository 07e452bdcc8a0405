import type { Logger } from '@crawl/logging';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { InitializedModule } from './init-modules.ts';

/** The modules' root plugins (the gateway's edge), at the root before any route: their hooks see every route. */
export async function registerRootPlugins(app: FastifyInstance, modules: readonly InitializedModule[]): Promise<void> {
  for (const { instance } of modules) if (instance.rootPlugin) await app.register(fp(instance.rootPlugin));
}

/** Each module's routes, in an encapsulated context of their own. */
export async function registerModuleRoutes(app: FastifyInstance, modules: readonly InitializedModule[], logger: Logger): Promise<void> {
  for (const { module, instance } of modules) {
    if (instance.routes) await app.register(instance.routes, { prefix: '' });
    logger.debug({ module: module.name }, 'module routes registered');
  }
}
