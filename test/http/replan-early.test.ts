/**
 * A route started before its day (a driver confirms the first stop the evening before, or a test
 * of the dispatch app): a re-plan puts the rest of the route in the vehicle's shift on the route's
 * date, never at the moment the stop was confirmed (src/jobs/day.ts: the start of the rest of a
 * route is not before the shift opens). On both stores; it failed before: the pending stops were
 * planned three days early, before the shift and outside the route's date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { INTERNAL, makeWorld, near, PUBLIC, type World } from '../e2e/world.js';

/** Three days from now, in UTC (the company's zone here). */
const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld({ kind, timezone: 'UTC', vehicles: 2 });
  });
  afterAll(async () => w?.close());

  it('the rest of a route started days early is planned in its shift on its date', async () => {
    const ids = await w.addOrders(
      Array.from({ length: 5 }, (_, i) => ({ external_id: `EARLY-${i + 1}`, address: `Early Street ${i + 1}`, ...near(2 + (i % 3), -2 + i), weight: '10.000', volume: '0.010', delivery_date: date })),
    );
    const planned = await w.plan({ order_ids: ids, vehicle_ids: [w.vehicles[0]!.id] });
    expect(planned.status).toBe('done');
    const routeId = (planned.result as { route_ids: number[] }).route_ids[0]!;
    expect((await w.inject('POST', `${INTERNAL}/routes/${routeId}/start`, {})).statusCode).toBe(200);
    const before = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/`)).json();
    const first = before.stops.find((s: { stop_type: string }) => s.stop_type === 'order');
    expect((await w.inject('POST', `${INTERNAL}/stops/${first.id}/status`, { status: 'confirmed' })).statusCode).toBe(200);

    const res = await w.inject('POST', `${INTERNAL}/planning/replan`, { date });
    expect(res.statusCode, res.body).toBe(202);
    const job = await w.runtime.jobs.waitFor(w.company.id, res.json().job_id);
    expect(job.status, job.error).toBe('done');

    const after = (await w.inject('GET', `${PUBLIC}/routes/${routeId}/`)).json();
    const pending = after.stops.filter((s: { status: string; stop_type: string }) => s.stop_type !== 'start_depot' && s.status === 'pending');
    expect(pending.length).toBe(5); // four orders and the end depot
    // the vans' shift is 08:00-18:00 in the company's zone (UTC here)
    for (const stop of pending) {
      expect(stop.planned_arrival_at.slice(0, 10)).toBe(date);
      expect(stop.planned_arrival_at >= `${date}T08:00:00Z`, stop.planned_arrival_at).toBe(true);
      expect(stop.planned_arrival_at <= `${date}T18:00:00Z`, stop.planned_arrival_at).toBe(true);
    }
  });
});
