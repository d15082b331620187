/**
 * The dispatcher page's day as it happens (issue 39, item 4), in headless Chromium against a real
 * `serve`: the vans of the date, a quote for one more order (a yes with its ETA and route, a no
 * with its reason), "Re-plan the day" (what moved, what was placed, what could not be), and a van
 * out of service (two clicks; its stops go to the other routes). What the page says is checked
 * against what the API answers.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumAvailable } from '../helpers/environment.js';
import { artifacts, BOOK, launchPage } from './page-world.js';
import { client, seedDb, startServe, until, type Served } from './serve.js';

const DATE = '2026-12-01';
const PUBLIC = '/api/public/v1';
const INTERNAL = '/api/internal/v1';


const browser = chromiumAvailable() || process.env.DP_TEST_REQUIRE_BROWSER === '1';

interface RouteDetail {
  id: number;
  name: string;
  status: string;
  stops: Array<{ id: number; stop_type: string; status: string; order_id: number | null }>;
}

describe.skipIf(!browser)('the dispatcher page: the day as it happens, in headless Chromium', () => {
  let seeded: ReturnType<typeof seedDb>;
  let server: Served;
  let call: ReturnType<typeof client>;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  const pageErrors: string[] = [];
  let newIds: number[] = [];
  let heavyId = 0;

  const order = (i: number, extra: Record<string, unknown> = {}) => ({
    external_id: `DAY-${i}`,
    address: BOOK[i]!.address,
    lat: BOOK[i]!.lat,
    lon: BOOK[i]!.lon,
    weight: '12.5',
    delivery_date: DATE,
    ...extra,
  });

  const finished = (jobId: number) =>
    until(async () => {
      const r = await call('GET', `${PUBLIC}/planning/jobs/${jobId}/`);
      return r.body.status === 'done' || r.body.status === 'failed' ? r.body : undefined;
    });

  async function routesOfDate(): Promise<RouteDetail[]> {
    const list = await call('GET', `${PUBLIC}/routes/?date=${DATE}&page_size=200`);
    const all = await Promise.all(list.body.results.map(async (r: { id: number }) => (await call('GET', `${PUBLIC}/routes/${r.id}/`)).body as RouteDetail));
    return all.sort((a, b) => a.id - b.id);
  }

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    seeded = seedDb({ vehicles: 3 });
    server = await startServe(seeded.db, ['--job-time-limit', '0.5', '--workers', '1', '--geocoder', 'none']);
    call = client(server.base, seeded.key);

    // the morning plan: 16 orders on two of the three vans (a job each); the first route under way
    const bulk = await call('POST', `${PUBLIC}/orders/bulk/`, Array.from({ length: 16 }, (_, i) => order(i)));
    expect(bulk.body.summary.created).toBe(16);
    const ids = bulk.body.results.map((r: { id: number }) => r.id);
    for (const [part, van] of [[ids.slice(0, 8), seeded.vehicles[0]!.id], [ids.slice(8), seeded.vehicles[1]!.id]] as const) {
      const job = await call('POST', `${PUBLIC}/planning/jobs/`, { order_ids: part, vehicle_ids: [van] });
      const done = await finished(job.body.job_id);
      expect(done.status).toBe('done');
      expect(done.result.unassigned).toEqual([]);
    }
    const routes = await routesOfDate();
    expect(routes).toHaveLength(2);
    const first = routes[0]!;
    expect((await call('POST', `${INTERNAL}/routes/${first.id}/start`)).status).toBe(200);
    const firstStop = first.stops.find((s) => s.stop_type === 'order')!;
    expect((await call('POST', `${INTERNAL}/stops/${firstStop.id}/status`, { status: 'confirmed' })).status).toBe(200);

    // orders that came in during the day: three that fit, one too heavy for any van
    const more = await call('POST', `${PUBLIC}/orders/bulk/`, [order(16), order(17), order(18), order(19, { external_id: 'DAY-HEAVY', weight: '5000' })]);
    expect(more.body.summary.created).toBe(4);
    newIds = more.body.results.slice(0, 3).map((r: { id: number }) => r.id);
    heavyId = more.body.results[3].id;

    profile = mkdtempSync(join(tmpdir(), 'dp-chromium-'));
    context = await launchPage(profile, { width: 1280, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(`${msg.text()} (${msg.location().url})`);
    });
    await page.goto(`${server.base}/app/#date=${DATE}`);
    await page.fill('#key-input', seeded.key);
    await page.click('#key-form button');
    await page.waitForSelector('#key-form', { state: 'hidden' });
  });

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (server) expect(await server.kill('SIGTERM')).toBe(0);
    if (seeded) rmSync(seeded.dir, { recursive: true, force: true });
  });

  const count = (selector: string) => page.locator(selector).count();
  const waitCount = (selector: string, n: number) => expect.poll(() => count(selector), { timeout: 30_000, interval: 50 }).toBe(n);

  it('lists the vans of the date, each with its route, and offers "out of service" for those with a route', async () => {
    await waitCount('#vans li[data-vehicle]', 3);
    const fleet = (await call('GET', `${INTERNAL}/vehicles/?date=${DATE}`)).body.results as Array<{ id: number; route_id: number | null }>;
    const routes = await routesOfDate();
    for (const van of fleet) {
      const text = await page.textContent(`#vans li[data-vehicle="${van.id}"]`);
      const route = routes.find((r) => r.id === van.route_id);
      if (route) expect(text).toContain(`${route.name}: ${route.status}`);
      else expect(text).toContain('no route on this date');
      expect(await count(`#vans li[data-vehicle="${van.id}"] button`)).toBe(route ? 1 : 0);
    }
  });

  it('quotes one more order: yes with the ETA and route the API gives, no with the reason', async () => {
    const point = BOOK[20]!;
    await page.fill('#quote-lat', point.lat);
    await page.fill('#quote-lon', point.lon);
    await page.fill('#quote-weight', '5');
    await page.click('#quote-form button');
    await page.waitForSelector('#quote-answer.feasible, #quote-answer.infeasible');
    const answer = (await call('POST', `${INTERNAL}/planning/quote`, { date: DATE, lat: Number(point.lat), lon: Number(point.lon), weight: 5 })).body;
    expect(answer.feasible).toBe(true);
    const route = (await routesOfDate()).find((r) => r.id === answer.route_id)!;
    const text = await page.textContent('#quote-answer');
    expect(text).toContain(`on ${route.name}, as its stop ${answer.position} (+${answer.added_km} km, +${answer.added_min} min)`);
    expect(text).toMatch(/^Yes: at \d\d:\d\d on /);

    await page.fill('#quote-weight', '5000');
    await page.click('#quote-form button');
    await page.waitForSelector('#quote-answer.infeasible');
    expect(await page.textContent('#quote-answer')).toBe('No: capacity: not enough load capacity or volume.');
  });

  it('takes a van out of service after a confirming click: its pending stops go to the other route', async () => {
    const fleet = (await call('GET', `${INTERNAL}/vehicles/?date=${DATE}`)).body.results as Array<{ id: number; route_id: number | null; route_status: string | null }>;
    const van = fleet.find((v) => v.route_status === 'planned')!;
    expect(van).toBeDefined();
    const before = (await routesOfDate()).find((r) => r.id === van.route_id)!;
    const itsOrders = before.stops.filter((s) => s.order_id !== null).map((s) => s.order_id!);
    const button = `#vans li[data-vehicle="${van.id}"] button`;
    await page.click(button);
    expect(await page.textContent(button)).toBe('Confirm: out of service');
    await page.click(button);
    await page.waitForSelector('#job-status:has-text(" done: ")', { timeout: 60_000 });
    const m = /^Re-plan job (\d+) done: (\d+) orders? moved to another route, (\d+) placed, (\d+) could not be placed\.$/.exec((await page.textContent('#job-status'))!);
    expect(m).not.toBeNull();
    const job = (await call('GET', `${PUBLIC}/planning/jobs/${m![1]}/`)).body;
    expect(job.status).toBe('done');
    // on the API: none of its orders is pending on its route any more; each is on the other route
    // or back to new and unassigned; the page counts and lists the same
    const after = await routesOfDate();
    const itsRoute = after.find((r) => r.id === van.route_id);
    expect(itsRoute?.stops.some((s) => s.order_id !== null && s.status === 'pending') ?? false).toBe(false);
    const elsewhere = new Set(after.filter((r) => r.id !== van.route_id).flatMap((r) => r.stops.map((s) => s.order_id)));
    const unassigned = new Set((job.result.unassigned as Array<{ order_id: number }>).map((u) => u.order_id));
    for (const id of itsOrders) expect(elsewhere.has(id) || unassigned.has(id)).toBe(true);
    const moved = itsOrders.filter((id) => elsewhere.has(id));
    expect(moved.length).toBeGreaterThan(0);
    expect(Number(m![2])).toBe(moved.length);
    expect(await count('#moves li.moved')).toBe(moved.length);
    expect(await count('#moves li.unplaced')).toBe(unassigned.size);
    expect(Number(m![4])).toBe(unassigned.size);
    // the van has no route to take out of service any more
    await waitCount(`${button}`, 0);
  });

  it('re-plans the day: the new orders that fit are placed, the heavy one is not, and the page says so', async () => {
    const previous = await page.textContent('#job-status');
    await page.click('#replan');
    await expect.poll(async () => { const t = (await page.textContent('#job-status'))!; return t !== previous && / done: /.test(t); }, { timeout: 60_000, interval: 50 }).toBe(true);
    const text = (await page.textContent('#job-status'))!;
    const m = /^Re-plan job (\d+) done: (\d+) orders? moved to another route, (\d+) placed, (\d+) could not be placed\.$/.exec(text);
    expect(m, text).not.toBeNull();
    const job = (await call('GET', `${PUBLIC}/planning/jobs/${m![1]}/`)).body;
    expect(job.status).toBe('done');
    expect(job.result.unassigned).toEqual([{ order_id: heavyId, reason: 'capacity' }]);
    expect(Number(m![3])).toBe(3);
    expect(Number(m![4])).toBe(1);
    const onRoutes = (await routesOfDate()).flatMap((r) => r.stops.map((s) => s.order_id));
    for (const id of newIds) {
      expect(onRoutes).toContain(id);
      expect(await page.textContent('#moves')).toContain(`(#${id}) placed on `);
    }
    expect(await page.textContent('#moves')).toContain(`order DAY-HEAVY (#${heavyId}) could not be placed: capacity`);
    expect(await count('#moves li.moved')).toBe(Number(m![2]));
    expect(pageErrors).toEqual([]);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'dispatcher-day.png') });
  });

});
