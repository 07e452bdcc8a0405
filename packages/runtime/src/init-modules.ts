import type { ServiceName } from '@crawl/contracts';
import type { IdentityResolver } from '@crawl/http-kit';
import { moduleContext, type SharedWithModules } from './module-context.ts';
import type { AnyModuleContext, AnyServiceModule, ModuleInstance } from './service-module.ts';

/** A module and what its init returned. */
export interface InitializedModule {
  readonly module: AnyServiceModule;
  readonly instance: ModuleInstance;
}

export interface InitializedModules {
  /** In dependency order. */
  readonly modules: readonly InitializedModule[];
  readonly contexts: ReadonlyMap<ServiceName, AnyModuleContext>;
}

/** Each module's init with its context, in dependency order: a module may rely on what those before it set up. */
export async function initModules(shared: SharedWithModules): Promise<InitializedModules> {
  const modules: InitializedModule[] = [];
  const contexts = new Map<ServiceName, AnyModuleContext>();
  for (const module of shared.parts.modules) {
    const context = moduleContext(module, shared);
    contexts.set(module.name, context);
    modules.push({ module, instance: await module.init(context) });
  }
  return { modules, contexts };
}

/** How a Bearer token becomes an identity, where the gateway runs in this process. */
export function identityResolverOf(modules: readonly InitializedModule[]): IdentityResolver | undefined {
  return modules.find((m) => m.instance.identityResolver)?.instance.identityResolver;
}
