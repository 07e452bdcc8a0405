import type { ServiceName } from '@crawl/contracts';
import type { AnyServiceModule } from './service-module.ts';

/** Dependency order for the modules in one process; dependencies outside the process are remote. */
export function orderModules(modules: readonly AnyServiceModule[]): AnyServiceModule[] {
  const byName = new Map(modules.map((m) => [m.name, m] as const));
  const ordered: AnyServiceModule[] = [];
  const state = new Map<ServiceName, 'visiting' | 'done'>();
  const visit = (module: AnyServiceModule, path: ServiceName[]) => {
    const seen = state.get(module.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`Module dependency cycle: ${[...path, module.name].join(' -> ')}`);
    state.set(module.name, 'visiting');
    for (const dependency of module.dependencies ?? []) {
      const local = byName.get(dependency);
      if (local) visit(local, [...path, module.name]);
    }
    state.set(module.name, 'done');
    ordered.push(module);
  };
  for (const module of modules) visit(module, []);
  return ordered;
}
