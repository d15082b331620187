/**
 * Quotas per company (docs/contract/operations.md, "Quotas and outbound rules"; issue 38), on both stores: open
 * orders per company, positions per vehicle per minute; over a quota 429 `{detail}` naming it, and
 * nothing written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/options.js';
import { PlannerMetrics } from '../../src/http/metrics.js';
import { postgres } from '../helpers/postgres.js';
import { makeAppOn } from './fixture.js';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && !postgres.available)(`quotas (${kind})`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const f of cleanup.splice(0)) await f();
    });

    it('open orders: single and bulk creates past the quota are 429 naming it; an existing external_id is still answered; cancelling frees room', async () => {
      const metrics = new PlannerMetrics();
      const f = await makeAppOn(kind, { geocoding: false, quotas: { maxOpenOrders: 3 }, metrics });
      cleanup.push(() => f.close());
      const a = (await f.inject('POST', '/orders/', { address: 'a', external_id: 'A' })).json();
      expect((await f.inject('POST', '/orders/bulk/', [{ address: 'b' }, { address: 'c' }])).statusCode).toBe(200);
      const over = await f.inject('POST', '/orders/', { address: 'd' });
      expect(over.statusCode).toBe(429);
      expect(over.json().detail).toMatch(/^Open orders quota exceeded: a company may hold at most 3 orders in status new or in_route\./);
      // a bulk that would pass it makes nothing
      const bulk = await f.inject('POST', '/orders/bulk/', [{ address: 'e' }]);
      expect(bulk.statusCode).toBe(429);
      expect((await f.inject('GET', '/orders/')).json().count).toBe(3);
      // the same external_id creates nothing: answered as before (200, the existing order)
      const same = await f.inject('POST', '/orders/', { address: 'x', external_id: 'A' });
      expect([same.statusCode, same.json().id]).toEqual([200, a.id]);
      // another company has its own quota
      expect((await f.inject('POST', '/orders/', { address: 'o' }, f.otherKey)).statusCode).toBe(201);
      // a cancelled order is no longer open
      expect((await f.inject('POST', `/orders/${a.id}/cancel/`)).statusCode).toBe(200);
      expect((await f.inject('POST', '/orders/', { address: 'd' })).statusCode).toBe(201);
      const text = await (await f.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(text).toContain('planner_rate_limited_total{limit="open_orders"} 2');
    });

    it('open orders: concurrent creates never pass the quota (PostgreSQL: real concurrency on the pool), and the count stays exact', async () => {
      const f = await makeAppOn(kind, { geocoding: false, quotas: { maxOpenOrders: 7 } });
      cleanup.push(() => f.close());
      expect((await f.inject('POST', '/orders/', { address: 'first' })).statusCode).toBe(201);
      const answers = await Promise.all([
        ...Array.from({ length: 16 }, (_, i) => f.inject('POST', '/orders/', { address: `single ${i}` })),
        ...Array.from({ length: 4 }, (_, i) => f.inject('POST', '/orders/bulk/', [{ address: `bulk ${i} a` }, { address: `bulk ${i} b` }])),
      ]);
      expect(answers.every((a) => [200, 201, 429].includes(a.statusCode)), answers.map((a) => a.statusCode).join()).toBe(true);
      const list = (await f.inject('GET', '/orders/')).json();
      expect(list.count).toBe(7);
      expect(list.results).toHaveLength(7);
      const made = answers.filter((a) => a.statusCode === 201).length + 2 * answers.filter((a) => a.statusCode === 200).length;
      expect(made).toBe(6);
      // the kept count agrees with the orders: one more is refused, a cancel frees exactly one place
      expect((await f.inject('POST', '/orders/', { address: 'over' })).statusCode).toBe(429);
      expect((await f.inject('POST', `/orders/${list.results[0].id}/cancel/`)).statusCode).toBe(200);
      expect((await f.inject('POST', '/orders/', { address: 'again' })).statusCode).toBe(201);
      expect((await f.inject('POST', '/orders/', { address: 'over again' })).statusCode).toBe(429);
    });

    it('positions: at most N a vehicle a minute, a batch counted by its positions; another vehicle has its own', async () => {
      const f = await makeAppOn(kind, { geocoding: false, quotas: { maxPositionsPerMinute: 5 } });
      cleanup.push(() => f.close());
      const [one, two] = await f.port.transaction(async (tx) => {
        const now = new Date().toISOString();
        const wh = await tx.warehouses.create({ company_id: f.company.id, name: 'W', address: 'x', lat: 52.5, lon: 13.4 }, now);
        const van = (name: string) =>
          tx.vehicles.create(
            { company_id: f.company.id, warehouse_id: wh.id, name, capacity_kg: 100, capacity_m3: 1, shift_start: '08:00', shift_end: '18:00',
              max_distance_km: null, max_duration_min: null, max_orders: null, features: [], active: true },
            now,
          );
        return [await van('one'), await van('two')];
      });
      const at = () => ({ lat: 52.5, lon: 13.4, timestamp: new Date().toISOString() });
      const post = (id: number, body: unknown) => f.inject('POST', `/api/internal/v1/vehicles/${id}/positions`, body);
      expect((await post(one!.id, [at(), at(), at()])).statusCode).toBe(201);
      expect((await post(one!.id, at())).statusCode).toBe(201);
      const batch = await post(one!.id, [at(), at()]);
      expect(batch.statusCode).toBe(429);
      expect(batch.json().detail).toMatch(/^Positions quota exceeded: a vehicle may send at most 5 positions a minute\./);
      expect((await post(one!.id, at())).statusCode).toBe(201);
      expect((await post(one!.id, at())).statusCode).toBe(429);
      expect((await post(two!.id, at())).statusCode).toBe(201);
    });
  });
}

describe('serve flags', () => {
  it('--max-open-orders and --max-positions-per-minute, defaults 100,000 and 60', () => {
    expect(parseServeArgs([])).toMatchObject({ quotas: { maxOpenOrders: 100_000, maxPositionsPerMinute: 60 } });
    expect(parseServeArgs(['--max-open-orders', '500', '--max-positions-per-minute', '120'])).toMatchObject({ quotas: { maxOpenOrders: 500, maxPositionsPerMinute: 120 } });
    expect(() => parseServeArgs(['--max-open-orders', '0'])).toThrow(/^--max-open-orders: expected a whole number from 1/);
  });
});
