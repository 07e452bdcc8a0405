/** The built-in routes, and each page kind's route by its name (kinds/index.ts). */
export type Route = 'search' | 'product' | 'home' | 'address-change' | 'health' | 'other' | (string & {});

export interface SimulatorStats {
  /** Requests received, faulted ones included. */
  total: number;
  /** Per URL (path plus query without `sim_*` parameters). */
  byPath: Record<string, number>;
  byRoute: Record<Route, number>;
  /** Per HTTP status sent; reset sockets count under `reset`. */
  byStatus: Record<string, number>;
  /** Per injected fault kind. */
  faults: Record<string, number>;
}

export class StatsRecorder {
  private data: SimulatorStats = StatsRecorder.empty();

  private static empty(): SimulatorStats {
    return { total: 0, byPath: {}, byRoute: { search: 0, product: 0, home: 0, 'address-change': 0, health: 0, other: 0 }, byStatus: {}, faults: {} };
  }

  /** Counts a request and returns which attempt at this URL it is (1-based). */
  request(pathKey: string, route: Route): number {
    this.data.total++;
    this.data.byRoute[route] = (this.data.byRoute[route] ?? 0) + 1;
    const attempt = (this.data.byPath[pathKey] ?? 0) + 1;
    this.data.byPath[pathKey] = attempt;
    return attempt;
  }

  status(status: number | 'reset'): void {
    const key = String(status);
    this.data.byStatus[key] = (this.data.byStatus[key] ?? 0) + 1;
  }

  fault(kind: string): void {
    this.data.faults[kind] = (this.data.faults[kind] ?? 0) + 1;
  }

  snapshot(): SimulatorStats {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = StatsRecorder.empty();
  }
}
