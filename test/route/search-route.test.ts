/**
 * A route's caches are updated incrementally (only the forward caches after the first changed
 * position and the backward caches before the last one). After any sequence of inserts, removals
 * and replacements they must hold exactly the numbers a route built from scratch holds (the
 * backward caches, filled on demand, once filled).
 */
import { describe, expect, it } from 'vitest';
import { buildProblem, costModel, type Problem } from '../../src/model/problem.js';
import { SearchRoute } from '../../src/route/search-route.js';
import { lcg, randomProblem } from '../helpers/problems.js';

const CACHES = ['loc', 'cumDist', 'arcDist', 'cumW', 'cumV', 'fD', 'fT', 'fE', 'fL', 'gD', 'gT', 'gE', 'gL', 'bD', 'bT', 'bE', 'bL'] as const;
const TRIP_CACHES = ['cumR', 'lastR', 'nextR', 'xW', 'xV'] as const;
const TOTALS = ['size', 'nOrd', 'reloads', 'distance', 'duration', 'timeWarp', 'weight', 'volume', 'excessW', 'excessV', 'cost', 'penalty'] as const;

function expectSame(p: Problem, got: SearchRoute, vehicle: number): void {
  const fresh = new SearchRoute(p, got.costs, vehicle, 0);
  fresh.setOrders(got.orders());
  fresh.update();
  // the backward caches are lazy: fill both routes' before comparing whole arrays
  got.fillAll();
  fresh.fillAll();
  const k = got.size;
  for (const name of [...CACHES, ...(p.hasReloads ? TRIP_CACHES : [])]) {
    // positions 0..k+1 are the route's (the arrays are longer)
    expect(Array.from(got[name].subarray(0, k + 2)), name).toEqual(Array.from(fresh[name].subarray(0, k + 2)));
  }
  for (const name of TOTALS) expect(got[name], name).toBe(fresh[name]);
  expect(got.feasible()).toBe(fresh.feasible());
}

function randomEdits(p: Problem, seed: number, steps: number): void {
  const rnd = lcg(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const costs = costModel(p, 'distance');
  const vehicle = int(p.nVehicles);
  const r = new SearchRoute(p, costs, vehicle, 0);
  // nodes this vehicle may visit: every order, plus its own reload nodes
  const pool: number[] = [];
  for (let o = 0; o < p.nOrders; o++) pool.push(o);
  for (let x = p.vReloadFirst[vehicle]; x < p.vReloadFirst[vehicle] + p.vMaxTrips[vehicle] - 1; x++) pool.push(x);
  const out = new Set(pool);
  const take = (): number => {
    const list = [...out];
    const o = list[int(list.length)];
    out.delete(o);
    return o;
  };
  for (let step = 0; step < steps; step++) {
    const kind = int(10);
    if ((kind < 4 || r.size === 0) && out.size > 0) r.insertAfter(int(r.size + 1), take());
    else if (kind < 7 && r.size > 0) out.add(r.removeAt(1 + int(r.size)));
    else {
      // a move-like replacement: a stretch reversed, moved, or swapped for outside orders
      const list = r.orders();
      const i = int(list.length + 1);
      const j = i + int(list.length - i + 1);
      const how = int(4);
      if (how === 0) list.splice(i, j - i, ...list.slice(i, j).reverse());
      else if (how === 1) {
        const seg = list.splice(i, j - i);
        list.splice(int(list.length + 1), 0, ...seg);
      } else if (how === 2) {
        for (const o of list.splice(i, j - i)) out.add(o);
        for (let t = int(4); t > 0 && out.size > 0; t--) list.splice(i, 0, take());
      } else if (how === 3 && list.length > 0) {
        // the same orders (nothing changes but the version)
        const before = r.version;
        r.setOrders(list);
        expect(r.version).toBe(before + 1);
      }
      r.setOrders(list);
    }
    // the backward caches are filled on demand: sometimes part of the way (a probe's suffix),
    // sometimes checked (which fills them all), so edits also meet partly stale caches
    const what = int(3);
    if (what === 0) expectSame(p, r, vehicle);
    else if (what === 1 && r.size > 0) {
      const i = 1 + int(r.size);
      if (r.gStale >= i) r.fillG(i);
      const j = 1 + int(r.size);
      if (r.bStale >= j) r.fillB(j);
    }
  }
  // and emptied
  r.setOrders([]);
  expectSame(p, r, vehicle);
}

describe('SearchRoute: incremental cache updates equal a rebuild from scratch', () => {
  for (const seed of [1, 2, 3]) {
    it(`time windows, loads and limits, seed ${seed}`, () => {
      const p = buildProblem(randomProblem({ orders: 30, vehicles: 3, seed, windows: true, limits: true, features: true }));
      randomEdits(p, seed, 300);
    });
  }
  it('vehicles with trips (reload nodes)', () => {
    const input = randomProblem({ orders: 30, vehicles: 2, seed: 9, windows: true, capacity: 20 });
    input.vehicles = input.vehicles.map((v) => ({ ...v, maxTrips: 4, reloadTime: 5 }));
    const p = buildProblem(input);
    expect(p.hasReloads).toBe(true);
    randomEdits(p, 9, 300);
  });
  it('grows past its first capacity and keeps the caches', () => {
    const p = buildProblem(randomProblem({ orders: 60, vehicles: 1, seed: 4, windows: true }));
    const r = new SearchRoute(p, costModel(p, 'distance'), 0, 0);
    for (let o = 0; o < 60; o++) r.insertAfter(r.size === 0 ? 0 : o % r.size, o);
    expectSame(p, r, 0);
  });
});
