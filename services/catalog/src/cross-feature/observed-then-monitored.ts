import type { Monitors } from '../features/monitors/index.ts';
import type { TargetResultsObserver } from '../features/shared/ports.ts';

/**
 * What a successful target's records set off on the report path: history records them and says
 * what changed, then the monitors' rules read those changes (a job of no monitor stops there).
 * Both are idempotent, so a report sent again after a failure part-way repeats nothing.
 */
export function observedThenMonitored(history: TargetResultsObserver, monitors: Pick<Monitors, 'evaluate'>): TargetResultsObserver {
  return {
    async observe(results) {
      const changes = await history.observe(results);
      await monitors.evaluate(results, changes);
      return changes;
    },
  };
}
