/**
 * Learning from the day (docs/contract/operations.md "Road matrices"): a fleet whose drivers take 25 % longer
 * than planned on every hop reports its arrivals through the dispatch API of a real server on
 * loopback; `admin company speed-report --apply` then finds a factor near 1.25 and sets it.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { runCli } from '../helpers/run-cli.js';
import { client, DATE, seedDb, startServe, until, type Served } from './serve.js';

const SLOWER = 1.25;

/** Orders in Berlin (hops of a few km) and in towns around it (hops of 20-40 km); no time
 *  windows, so that a planned gap between two stops is driving only, never waiting. */
function spreadOrders() {
  const towns: Array<[number, number]> = [[52.39, 13.06], [52.75, 13.24], [52.3, 13.63], [52.68, 13.59], [52.58, 13.88], [52.3, 13.26]];
  const city = Array.from({ length: 18 }, (_, i): [number, number] => [52.45 + ((i * 37) % 100) / 1000, 13.3 + ((i * 53) % 200) / 1000]);
  return [...city, ...towns].map(([lat, lon], i) => ({
    external_id: `SLOW-${i}`,
    address: `Teststraße ${i}, Berlin`,
    lat: lat.toFixed(6),
    lon: lon.toFixed(6),
    delivery_date: DATE,
    weight: '4',
    volume: '0.05',
  }));
}

describe('admin company speed-report on a fleet 25 % slower than planned', () => {
  const seeded = seedDb({ vehicles: 2 });
  let served: Served | undefined;
  afterAll(async () => {
    await served?.kill();
    rmSync(seeded.dir, { recursive: true, force: true });
  });

  it('fits a factor near 1.25 from the actual arrivals, per distance band, and --apply sets it', async () => {
    served = await startServe(seeded.db);
    const call = client(served.base, seeded.key);
    const bulk = await call('POST', '/api/public/v1/orders/bulk/', spreadOrders());
    expect(bulk.status).toBe(200);
    const started = await call('POST', '/api/public/v1/planning/jobs/', { external_ids: spreadOrders().map((o) => o.external_id) });
    expect(started.status).toBe(202);
    const job = await until(async () => {
      const polled = await call('GET', `/api/public/v1/planning/jobs/${started.body.job_id}/`);
      return ['done', 'failed'].includes(polled.body.status) ? polled.body : undefined;
    }, 200);
    expect(job.status, job.error).toBe('done');
    expect(job.result.unassigned).toEqual([]);

    // the drivers: every hop takes 1.25 times its planned gap, every service its planned time
    let hops = 0;
    for (const routeId of job.result.route_ids as number[]) {
      const route = (await call('GET', `/api/public/v1/routes/${routeId}/`)).body;
      const stops = route.stops as Array<{ id: number; stop_type: string; planned_arrival_at: string; planned_departure_at: string }>;
      let left = Date.parse(stops[0]!.planned_departure_at);
      expect((await call('POST', `/api/internal/v1/routes/${routeId}/start`, { at: new Date(left).toISOString() })).status).toBe(200);
      for (let k = 1; k < stops.length; k++) {
        const stop = stops[k]!;
        if (stop.stop_type !== 'order') continue;
        const planned = Date.parse(stop.planned_arrival_at) - Date.parse(stops[k - 1]!.planned_departure_at);
        const arrived = left + SLOWER * planned;
        const service = Date.parse(stop.planned_departure_at) - Date.parse(stop.planned_arrival_at);
        const visited = await call('POST', `/api/internal/v1/stops/${stop.id}/status`, { status: 'visited', at: new Date(arrived).toISOString() });
        expect(visited.status).toBe(200);
        left = arrived + service;
        expect((await call('POST', `/api/internal/v1/stops/${stop.id}/status`, { status: 'confirmed', at: new Date(left).toISOString() })).status).toBe(200);
        hops++;
      }
      expect((await call('GET', `/api/public/v1/routes/${routeId}/`)).body.status).toBe('completed');
    }
    expect(hops).toBe(spreadOrders().length);
    await served.kill();
    served = undefined;

    const report = runCli(['admin', '--db', seeded.db, 'company', 'speed-report', '--company', String(seeded.company.id), '--apply']);
    expect(report.code, report.stderr).toBe(0);
    const body = JSON.parse(report.stdout);
    expect(body).toMatchObject({ company_id: seeded.company.id, days: 28, hops, current_factor: 1, applied: true });
    expect(body.factor).toBeGreaterThan(1.2);
    expect(body.factor).toBeLessThan(1.3);
    // town hops and country hops alike: each band is 25 % slower than planned
    expect(body.bands.length).toBeGreaterThanOrEqual(3);
    expect(body.bands.reduce((n: number, b: { hops: number }) => n + b.hops, 0)).toBe(hops);
    for (const band of body.bands) {
      expect(band.factor).toBeGreaterThan(1.2);
      expect(band.factor).toBeLessThan(1.3);
      expect(band.actual_min / band.planned_min).toBeCloseTo(band.factor, 1);
    }
    expect(body.bands.some((b: { from_km: number }) => b.from_km >= 20)).toBe(true);

    const store = await openStore(seeded.db);
    try {
      expect((await store.planning.getCompany(seeded.company.id))!.speedFactor).toBe(body.factor);
    } finally {
      await store.close();
    }
    // a report after applying compares against the new factor: planned times now match actual ones
    const again = JSON.parse(runCli(['admin', '--db', seeded.db, 'company', 'speed-report', '--company', String(seeded.company.id)]).stdout);
    expect(again.current_factor).toBe(body.factor);
    for (const band of again.bands) expect(band.actual_min / band.planned_min).toBeCloseTo(1, 1);
  });
});
