/**
 * Ruin and recreate (SISR, Christiaens & Vanden Berghe 2020): remove strings of consecutive orders
 * from routes near a random seed order, then reinsert every removed order at its cheapest feasible
 * position, skipping each position with a small "blink" probability, in an order chosen at random
 * among random / heaviest first / farthest first / closest first. The recreate either prices every
 * position of every candidate route, or (`nearUse` > 0) only the positions next to the order's
 * granular neighbours and the empty routes, with the full scan as the fallback when none of those
 * is feasible.
 */
import type { SearchSolution } from '../route/search-solution.js';
import type { RouteProbe } from '../route/probe.js';
import type { SearchRoute } from '../route/search-route.js';
import { bestInsertion, bestNearInsertion, insertChoice, newChoice } from '../route/insertion.js';

export interface RuinParams {
  /** Average number of orders removed. */
  avgRemoved: number;
  /** Longest string removed from one route. */
  maxString: number;
  blinkRate: number;
}

/** With more candidate routes than this, recreate looks at the routes near the order first. */
const NEAR_ROUTES_FROM = 24;

export const defaultRuinParams: RuinParams = { avgRemoved: 10, maxString: 10, blinkRate: 0.01 };

export interface Random {
  next(): number;
  int(n: number): number;
  shuffle<T>(a: T[]): T[];
}

export class RuinRecreate {
  private removed: number[] = [];
  /** The orders that were next to each removed string (the local search looks there first). */
  readonly edges: number[] = [];
  private ruinedRoutes: number[] = [];
  private cands: SearchRoute[] = [];
  private choice = newChoice();
  private tmp = newChoice();
  private key: Float64Array;
  private near: SearchRoute[] = [];
  private mark: Float64Array;
  private stamp = 0;
  /** When > 0, the recreate prices only the positions next to this many granular neighbours. */
  nearUse = 0;
  /**
   * The next recreate (this one only) first puts the first of its orders, in its insertion order,
   * alone into an empty route when new routes are allowed; the others then go wherever is cheapest,
   * the new route included. The mirror of `ruinRoute`: without it a route opens only when an
   * order's cheapest place is an empty route, which on long routes almost never happens.
   */
  openRoute = false;

  private nearRoutes(o: number): void {
    const sol = this.sol;
    const { k, list } = this.neighbours;
    this.stamp++;
    this.near.length = 0;
    for (const r of this.cands)
      if (r.nOrd === 0) {
        this.near.push(r);
        this.mark[r.index] = this.stamp;
      }
    for (let t = 0; t < k; t++) {
      const ri = sol.routeOf[list[o * k + t]];
      if (ri < 0 || this.mark[ri] === this.stamp) continue;
      this.mark[ri] = this.stamp;
      this.near.push(sol.routes[ri]);
    }
  }

  constructor(
    private readonly sol: SearchSolution,
    private readonly probe: RouteProbe,
    private readonly neighbours: { k: number; list: Int32Array },
    private readonly params: RuinParams = defaultRuinParams,
  ) {
    this.key = new Float64Array(sol.p.nOrders);
    this.mark = new Float64Array(sol.routes.length);
  }

  /**
   * Removes strings of orders; returns the removed orders (also kept for `recreate`). The strings
   * lie on the routes nearest a random served order, or nearest `seedOrder` when given (it may be
   * unassigned: fleet minimisation ruins around the orders it could not place).
   */
  ruin(rng: Random, avgRemoved = this.params.avgRemoved, seedOrder = -1): number[] {
    const sol = this.sol;
    const p = sol.p;
    this.removed.length = 0;
    this.edges.length = 0;
    this.ruinedRoutes.length = 0;
    let served = 0;
    let nonEmpty = 0;
    for (const r of sol.routes)
      if (r.size > 0) {
        served += r.size;
        nonEmpty++;
      }
    if (served === 0) return this.removed;
    const avgSize = served / nonEmpty;
    const lsMax = Math.min(this.params.maxString, avgSize);
    const ksMax = (4 * avgRemoved) / (1 + lsMax) - 1;
    const strings = Math.max(1, Math.floor(rng.next() * ksMax) + 1);
    let seed = seedOrder;
    if (seed < 0) {
      seed = rng.int(p.nOrders);
      for (let tries = 0; sol.routeOf[seed] < 0 && tries < 20; tries++) seed = rng.int(p.nOrders);
      if (sol.routeOf[seed] < 0) return this.removed;
    }
    const { k, list } = this.neighbours;
    for (let t = -1; t < k && this.ruinedRoutes.length < strings; t++) {
      const c = t < 0 ? seed : list[seed * k + t];
      const ri = sol.routeOf[c];
      if (ri < 0 || this.ruinedRoutes.includes(ri)) continue;
      const r = sol.routes[ri];
      const lMax = Math.min(r.size, lsMax);
      const len = Math.floor(rng.next() * lMax) + 1;
      // a string of len positions containing c, placed at random
      const pos = sol.posOf[c];
      const lo = Math.max(1, pos - len + 1);
      const hi = Math.min(pos, r.size - len + 1);
      const start = lo + rng.int(hi - lo + 1);
      const victims = Array.from(r.ord.subarray(start, start + len));
      if (start > 1) this.edges.push(r.ord[start - 1]);
      if (start + len <= r.size) this.edges.push(r.ord[start + len]);
      this.ruinedRoutes.push(ri);
      const rest = r.orders();
      // reload nodes in the string stay: taking one out would merge two trips into one
      // overloaded trip that no insertion repairs (the tidy step drops the ones left useless)
      if (p.hasReloads) rest.splice(start - 1, len, ...victims.filter((o) => o >= p.nOrders));
      else rest.splice(start - 1, len);
      sol.setRoute(r, rest);
      for (const o of victims) if (o < p.nOrders) this.removed.push(o);
    }
    return this.removed;
  }

  /**
   * Empties one route (the smaller of two picked at random): the only way the recreate can take a
   * route out of the solution when routes are long. Returns the removed orders.
   */
  ruinRoute(rng: Random): number[] {
    const sol = this.sol;
    this.removed.length = 0;
    this.edges.length = 0;
    this.ruinedRoutes.length = 0;
    const used: SearchRoute[] = [];
    for (const r of sol.routes) if (r.nOrd > 0) used.push(r);
    if (used.length < 2) return this.removed;
    const a = used[rng.int(used.length)];
    const b = used[rng.int(used.length)];
    const r = b.size < a.size ? b : a;
    for (let i = 1; i <= r.size; i++) if (r.ord[i] < sol.p.nOrders) this.removed.push(r.ord[i]);
    this.ruinedRoutes.push(r.index);
    sol.setRoute(r, []);
    return this.removed;
  }

  /** Reinserts the given orders (default: the last ruin's); returns those that found no place. */
  recreate(rng: Random, orders: number[] = this.removed): number[] {
    const sol = this.sol;
    const p = sol.p;
    const key = this.key;
    const pick = rng.next() * 11;
    if (pick < 4) rng.shuffle(orders);
    else {
      for (const o of orders) {
        const depotLoc = p.vStartLoc[0] ?? 0;
        const d = p.dist[depotLoc * p.nLoc + p.oLoc[o]];
        key[o] = pick < 8 ? -(p.oW[o] + p.oV[o]) : pick < 10 ? -d : d;
      }
      orders.sort((a, b) => key[a] - key[b] || a - b);
    }
    const left: number[] = [];
    const blink = () => rng.next();
    let first = 0;
    const open = this.openRoute;
    this.openRoute = false;
    if (open && orders.length > 1) {
      sol.candidateRoutes(this.cands);
      let empty: SearchRoute | null = null;
      for (const r of this.cands) if (r.nOrd === 0) empty = r;
      if (empty !== null) {
        this.near.length = 0;
        this.near.push(empty);
        bestInsertion(sol, this.probe, orders[0], this.near, this.choice, this.tmp, 0, blink);
        if (this.choice.route !== null) {
          insertChoice(sol, orders[0], this.choice);
          first = 1;
        }
      }
    }
    for (let x = first; x < orders.length; x++) {
      const o = orders[x];
      sol.candidateRoutes(this.cands);
      // near-only: the positions next to o's neighbours; when none is feasible, the full scan
      if (this.nearUse > 0) bestNearInsertion(sol, this.probe, o, this.neighbours, this.nearUse, this.cands, this.choice, this.tmp, this.params.blinkRate, blink);
      if (this.nearUse === 0 || this.choice.route === null) {
        // many routes: try those holding a neighbour of o (and the empty ones) first, then all
        const many = this.cands.length > NEAR_ROUTES_FROM;
        if (many) {
          this.nearRoutes(o);
          bestInsertion(sol, this.probe, o, this.near, this.choice, this.tmp, this.params.blinkRate, blink);
        }
        if (!many || this.choice.route === null) bestInsertion(sol, this.probe, o, this.cands, this.choice, this.tmp, this.params.blinkRate, blink);
      }
      if (this.choice.route === null) {
        left.push(o);
        continue;
      }
      insertChoice(sol, o, this.choice);
    }
    return left;
  }
}
