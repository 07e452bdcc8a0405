/**
 * Whether this process started tracing, and how to stop it. Kept on `globalThis` (like the
 * OpenTelemetry API's own registry) so a second copy of this module, e.g. under a test runner,
 * sees the same answer.
 */
const STATE = Symbol.for('crawl.tracing');

interface TracingState {
  shutdown(): Promise<void>;
}

type WithState = typeof globalThis & { [STATE]?: TracingState };

export function tracingActive(): boolean {
  return (globalThis as WithState)[STATE] !== undefined;
}

export function markTracingStarted(state: TracingState): void {
  (globalThis as WithState)[STATE] = state;
}

/** Exports the spans still buffered and stops tracing; nothing to do when tracing is off. */
export async function shutdownTracing(): Promise<void> {
  const global = globalThis as WithState;
  const state = global[STATE];
  if (!state) return;
  delete global[STATE];
  await state.shutdown();
}
