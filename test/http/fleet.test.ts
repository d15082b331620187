/**
 * GET /api/internal/v1/vehicles/?date= (src/http/fleet-routes.ts) on both stores: the company's
 * vehicles, active or not, each with its route on the date; nothing of another company; the route
 * of a dispatcher-assigned vehicle found by the assignment; the usual query and scope answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/backends.js';
import { DATE, INTERNAL, makeWorld, type World } from '../e2e/world.js';

for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`the fleet of a date, on ${kind}`, () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld({ kind, vehicles: 3 });
  });
  afterAll(async () => w?.close());

  const fleet = async (query: string, key?: string) => {
    const res = await w.inject('GET', `${INTERNAL}/vehicles/${query}`, undefined, key);
    return { status: res.statusCode, body: res.json() };
  };

  it('lists every vehicle of the company with its route on the date, and none on another date', async () => {
    // two tight clusters far apart: two routes on two of the three vans
    const ids = await w.addOrders(w.someOrders(12, 'FLEET'));
    const job = await w.plan({ order_ids: ids });
    expect(job.status).toBe('done');
    const routeIds = (job.result as { route_ids: number[] }).route_ids;
    expect(routeIds.length).toBeGreaterThanOrEqual(1);

    const { status, body } = await fleet(`?date=${DATE}`);
    expect(status).toBe(200);
    expect(body.date).toBe(DATE);
    expect(body.count).toBe(4); // three vans and the inactive one; not the other company's
    expect(body.results.map((v: { id: number }) => v.id)).toEqual([...w.vehicles.map((v) => v.id), w.inactive.id].sort((a, b) => a - b));
    expect(body.results.some((v: { id: number }) => v.id === w.otherVehicle.id)).toBe(false);
    const inactive = body.results.find((v: { id: number }) => v.id === w.inactive.id);
    expect(inactive).toMatchObject({ active: false, route_id: null, route_status: null });

    // each route of the job is on exactly the vehicle the route's stops were planned for
    const withRoutes = body.results.filter((v: { route_id: number | null }) => v.route_id !== null);
    expect(withRoutes.map((v: { route_id: number }) => v.route_id).sort()).toEqual([...routeIds].sort());
    for (const v of withRoutes) {
      const route = (await w.inject('GET', `/api/public/v1/routes/${v.route_id}/`)).json();
      expect(route.name).toBe(`${DATE} ${v.name}`);
      expect(v.route_status).toBe(route.status);
    }

    const other = await fleet('?date=2026-12-02');
    expect(other.body.results.every((v: { route_id: number | null }) => v.route_id === null)).toBe(true);
  });

  it('pages like every list, and refuses a missing or bad date, an unknown parameter and a key without dispatch:write', async () => {
    const first = await fleet(`?date=${DATE}&page_size=3`);
    expect(first.body.results).toHaveLength(3);
    expect(first.body.next).toBe(`/api/internal/v1/vehicles/?date=${DATE}&page=2&page_size=3`);
    const second = await fleet(`?date=${DATE}&page=2&page_size=3`);
    expect(second.body.results).toHaveLength(1);
    expect((await fleet(`?date=${DATE}&page=3&page_size=3`)).status).toBe(404);

    expect(await fleet('')).toEqual({ status: 400, body: { date: ['This field is required.'] } });
    expect(await fleet('?date=2026-13-01')).toEqual({ status: 400, body: { date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] } });
    expect((await fleet(`?date=${DATE}&vehicle=1`)).body).toEqual({ vehicle: ['Unknown query parameter.'] });
    const readOnly = await w.keyWith(['routes:read', 'orders:read']);
    expect((await fleet(`?date=${DATE}`, readOnly)).status).toBe(403);
    // the other company sees its own van only
    const theirs = await fleet(`?date=${DATE}`, w.otherKey);
    expect(theirs.body.results.map((v: { id: number }) => v.id)).toEqual([w.otherVehicle.id]);
  });
});
