/**
 * Copies of a solution's routes, kept in step by route versions: saving or restoring touches only
 * the routes that changed since, so an iteration of a search that may be undone costs little
 * beyond its moves (ruin-and-recreate in improve.ts and the fleet minimisation alike).
 */
import type { SearchSolution } from './search-solution.js';

/** Keeps a copy of each route and the version it was copied at. */
export class RouteCopies {
  orders: number[][];
  versions: Float64Array;
  constructor(private readonly sol: SearchSolution) {
    this.orders = sol.routes.map((r) => r.orders());
    this.versions = new Float64Array(sol.routes.map((r) => r.version));
  }
  /** Copies the routes that changed since the last sync. */
  save(): void {
    for (const r of this.sol.routes)
      if (r.version !== this.versions[r.index]) {
        this.orders[r.index] = r.orders();
        this.versions[r.index] = r.version;
      }
  }
  /** Puts back the routes that changed; calls back with each restored route index. */
  restore(onRestored: (index: number) => void): void {
    for (const r of this.sol.routes)
      if (r.version !== this.versions[r.index]) {
        this.sol.setRoute(r, this.orders[r.index]);
        this.versions[r.index] = r.version;
        onRestored(r.index);
      }
  }
  /** Forgets the saved copies and takes the solution as it is now. */
  resync(): void {
    this.orders = this.sol.routes.map((r) => r.orders());
    this.versions = new Float64Array(this.sol.routes.map((r) => r.version));
  }
  snapshot(): number[][] {
    return this.orders.map((o) => o.slice());
  }
}

