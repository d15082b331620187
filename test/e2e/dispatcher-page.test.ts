/**
 * The dispatcher page (/app/) in a real browser against the real server: Debian's Chromium,
 * headless, driven by playwright-core, on a `serve` child process on 127.0.0.1 with a planned day
 * (two routes from two planning jobs, one route started with a confirmed stop and a vehicle
 * position, and new orders left over). Every request the browser makes is recorded: all go to
 * 127.0.0.1 (the tiles URL points at a closed local port), none carries the key in its URL, every
 * API call carries it in the Authorization header. The screenshot is kept in test-artifacts/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/sqlite/store.js';
import { CHROMIUM, chromiumAvailable } from '../helpers/environment.js';
import { artifacts, BOOK, launchPage } from './page-world.js';
import { client, seedDb, startServe, until, type Served } from './serve.js';

const DATE = '2026-12-01';
const PUBLIC = '/api/public/v1';
const INTERNAL = '/api/internal/v1';


/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** A marker element as the page sees it (this project type-checks without the DOM library). */
interface Marker {
  dataset: Record<string, string | undefined>;
}

interface Seen {
  url: string;
  authorization: string | undefined;
}

// A fresh machine may have no browser: the test skips and the closing line says so, unless
// DP_TEST_REQUIRE_BROWSER=1 (set by .ci/run, which installs Chromium) makes a missing one fail.
const browser = chromiumAvailable() || process.env.DP_TEST_REQUIRE_BROWSER === '1';

describe.skipIf(!browser)('the dispatcher page in headless Chromium', () => {
  let seeded: ReturnType<typeof seedDb>;
  let server: Served;
  let call: ReturnType<typeof client>;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let tilesPort: number;
  const requests: Seen[] = [];
  const pageErrors: string[] = [];
  let planned: Array<{ id: number; stops: Array<{ id: number; stop_type: string; status: string }> }>;
  let started: { id: number; stops: Array<{ id: number; stop_type: string }> };
  const jobIds: number[] = [];

  const order = (i: number, extra: Record<string, unknown> = {}) => ({
    external_id: `WEB-${i}`,
    address: BOOK[i]!.address,
    lat: BOOK[i]!.lat,
    lon: BOOK[i]!.lon,
    weight: '12.5',
    delivery_date: DATE,
    ...extra,
  });

  async function planJob(orderIds: number[], vehicleId: number) {
    const job = await call('POST', `${PUBLIC}/planning/jobs/`, { order_ids: orderIds, vehicle_ids: [vehicleId] });
    expect(job.status).toBe(202);
    return until(async () => {
      const r = await call('GET', `${PUBLIC}/planning/jobs/${job.body.job_id}/`);
      return r.body.status === 'done' || r.body.status === 'failed' ? r.body : undefined;
    });
  }

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    seeded = seedDb({ vehicles: 3 });
    tilesPort = await closedPort();
    server = await startServe(seeded.db, [
      '--job-time-limit', '0.3', '--workers', '1', '--geocoder', 'none',
      '--tiles', `http://127.0.0.1:${tilesPort}/{z}/{x}/{y}.png`, '--tiles-attribution', 'local test tiles',
    ]);
    call = client(server.base, seeded.key);

    // a planned day: 20 orders in two routes (two jobs, one van each) ...
    const bulk = await call('POST', `${PUBLIC}/orders/bulk/`, Array.from({ length: 20 }, (_, i) => order(i)));
    expect(bulk.body.summary.created).toBe(20);
    const ids = bulk.body.results.map((r: { id: number }) => r.id);
    for (const [part, van] of [[ids.slice(0, 12), seeded.vehicles[0]!.id], [ids.slice(12), seeded.vehicles[1]!.id]] as const) {
      const job = await planJob(part, van);
      expect(job.status).toBe('done');
      expect(job.result.unassigned).toEqual([]);
      jobIds.push(job.job_id);
    }
    const list = await call('GET', `${PUBLIC}/routes/?date=${DATE}`);
    planned = await Promise.all(list.body.results.map(async (r: { id: number }) => (await call('GET', `${PUBLIC}/routes/${r.id}/`)).body));
    planned.sort((a, b) => a.id - b.id);
    expect(planned).toHaveLength(2);
    // ... the first one under way: a van assigned, its first order confirmed, a position sent
    started = planned[0]!;
    expect((await call('POST', `${INTERNAL}/routes/${started.id}/vehicle`, { vehicle_id: seeded.vehicles[0]!.id })).status).toBe(200);
    expect((await call('POST', `${INTERNAL}/routes/${started.id}/start`)).status).toBe(200);
    const firstOrderStop = started.stops.find((s) => s.stop_type === 'order')!;
    expect((await call('POST', `${INTERNAL}/stops/${firstOrderStop.id}/status`, { status: 'confirmed' })).status).toBe(200);
    expect((await call('POST', `${INTERNAL}/vehicles/${seeded.vehicles[0]!.id}/positions`, { lat: 52.5, lon: 13.4, speed_kmh: 23 })).status).toBe(201);
    // ... and new orders: three that fit, one too heavy for any van, one without coordinates
    const more = await call('POST', `${PUBLIC}/orders/bulk/`, [
      order(20), order(21), order(22),
      order(23, { external_id: 'WEB-HEAVY', weight: '5000' }),
      { external_id: 'WEB-NOWHERE', address: 'Nowhere 1, Berlin', delivery_date: DATE },
    ]);
    expect(more.body.summary.created).toBe(5);

    profile = mkdtempSync(join(tmpdir(), 'dp-chromium-'));
    context = await launchPage(profile, { width: 1280, height: 800 });
    page = context.pages()[0] ?? (await context.newPage());
    context.on('request', (request) => requests.push({ url: request.url(), authorization: request.headers()['authorization'] }));
    // the page's clock runs on, and a test can move it 30 s ahead to see the tracking refresh
    await page.clock.install();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      // the tiles fail to load on purpose, and 401, 403, 429 and the 404 of job 999 are answered on
      // purpose; anything else logged as an error (a CSP refusal, a script error, a missing file)
      // is a failure
      if (msg.type() !== 'error' || msg.location().url.includes(`:${tilesPort}/`)) return;
      if (/status of (401|403|429)/.test(msg.text()) || msg.location().url.endsWith('/planning/jobs/999/')) return;
      pageErrors.push(`${msg.text()} (${msg.location().url})`);
    });
  });

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (server) expect(await server.kill('SIGTERM')).toBe(0);
    if (seeded) rmSync(seeded.dir, { recursive: true, force: true });
  });

  const count = (selector: string) => page.locator(selector).count();
  // polled from the test (page.waitForFunction would evaluate in the page, which its CSP forbids)
  const waitCount = (selector: string, n: number) => expect.poll(() => count(selector), { timeout: 30_000, interval: 50 }).toBe(n);

  it('refuses a wrong key readably, then shows the routes, stops and unassigned orders of the date', async () => {
    await page.goto(`${server.base}/app/#date=${DATE}`);
    await page.fill('#key-input', 'dpk_not-a-key');
    await page.click('#key-form button');
    await page.waitForSelector('#message:has-text("The API key was not accepted: Invalid or revoked API key.")');
    expect(await page.isVisible('#key-form')).toBe(true);
    expect(await page.evaluate("sessionStorage.getItem('delivery-planner.api-key')")).toBeNull();

    await page.fill('#key-input', seeded.key);
    await page.click('#key-form button');
    await page.waitForSelector('#key-form', { state: 'hidden' });
    expect(await page.inputValue('#key-input')).toBe('');
    const stops = planned.reduce((n, r) => n + r.stops.length, 0);
    await waitCount('path.route-line', 2);
    await waitCount('.stop-marker', stops);
    // one numbered marker per stop, in visiting order: D, 1..k, D on each route
    for (const route of planned) {
      const markers = await page.$$eval(`.stop-marker[data-route="${route.id}"]`, (els) => els.map((e) => [(e as unknown as Marker).dataset.stop, e.textContent]));
      let n = 0;
      expect(markers).toEqual(route.stops.map((s) => [String(s.id), s.stop_type === 'order' ? String(++n) : 'D']));
    }
    // coloured by status: the confirmed stop and no other
    const confirmed = started.stops.find((s) => s.stop_type === 'order')!;
    expect(await page.$$eval('.stop-marker.status-confirmed', (els) => els.map((e) => (e as unknown as Marker).dataset.stop))).toEqual([String(confirmed.id)]);
    expect(await count('.stop-marker.status-pending')).toBe(stops - 1);
    // each route's km, duration and load in the list
    for (const route of planned) {
      const detail = (await call('GET', `${PUBLIC}/routes/${route.id}/`)).body;
      const text = await page.textContent(`#routes li[data-route="${route.id}"]`);
      expect(text).toContain(`${detail.planned_mileage_km} km`);
      expect(text).toContain(`load ${Number(detail.total_weight_kg)} kg`);
      expect(text).toMatch(/\d+ h \d+ min|\d+ min/);
    }
    // the date's new orders, with why each is not in a route
    await waitCount('#unassigned li[data-order]', 5);
    expect(await page.textContent('#unassigned')).toContain('no coordinates yet');
    expect(await page.textContent('#plan')).toBe(`Plan 4 new orders of ${DATE}`);
    // no tiles reachable: said on the map, which keeps its plain background
    await page.waitForSelector(`#map-note:has-text("Map tiles could not be loaded from 127.0.0.1:${tilesPort}")`);
  });

  it("shows a route's tracking: progress and the vehicle's last position", async () => {
    await page.click(`#routes li[data-route="${started.id}"]`);
    const orders = started.stops.filter((s) => s.stop_type === 'order').length;
    await page.waitForSelector(`#tracking-status:has-text("active: 1 of ${orders} orders done, ${orders - 1} to go.")`);
    expect(await page.textContent('#tracking-status')).toContain('Last position 52.50000, 13.40000');
    expect(await count('.vehicle-marker')).toBe(1);
    expect(await count('path.route-line.selected')).toBe(1);

    // 30 s later the page asks again: the second delivery and a new position show up
    const second = started.stops.filter((s) => s.stop_type === 'order')[1]!;
    expect((await call('POST', `${INTERNAL}/stops/${second.id}/status`, { status: 'rejected' })).status).toBe(200);
    expect((await call('POST', `${INTERNAL}/vehicles/${seeded.vehicles[0]!.id}/positions`, { lat: 52.51, lon: 13.41, speed_kmh: 5 })).status).toBe(201);
    const asked = requests.filter((r) => r.url.endsWith(`/routes/${started.id}/tracking/`)).length;
    await page.clock.fastForward(30_000);
    await page.waitForSelector(`#tracking-status:has-text("active: 2 of ${orders} orders done, ${orders - 2} to go.")`);
    expect(await page.textContent('#tracking-status')).toContain('Last position 52.51000, 13.41000');
    expect(requests.filter((r) => r.url.endsWith(`/routes/${started.id}/tracking/`)).length).toBe(asked + 1);
    expect(await page.$$eval('.stop-marker.status-rejected', (els) => els.map((e) => (e as unknown as Marker).dataset.stop))).toEqual([String(second.id)]);
  });

  it("shows a job an integrator started, by its id", async () => {
    await page.fill('#job-id', '999');
    await page.click('#job-form button');
    await page.waitForSelector(`#message:has-text("There is no planning job 999 for this key's company.")`);
    await page.fill('#job-id', String(jobIds[0]));
    await page.click('#job-form button');
    await page.waitForSelector(`#job-status:has-text("Planning job ${jobIds[0]} done in")`);
    expect(await page.textContent('#job-status')).toMatch(new RegExp(`^Planning job ${jobIds[0]} done in (\\d+ s|under 1 s): 1 route, 0 unassigned\\.$`));
  });

  it('starts a planning job for the new orders of the date and shows its progress', async () => {
    const before = requests.length;
    const id = jobIds[1]! + 1; // the next job of this database
    await page.click('#plan');
    await page.waitForSelector(`#job-status:has-text("Planning job ${id}")`);
    expect(await page.textContent('#job-status')).toMatch(new RegExp(`^Planning job ${id}: (queued|running) \\(\\d+ s\\)$|^Planning job ${id} done`));
    await page.waitForSelector(`#job-status:has-text("Planning job ${id} done")`);
    expect(await page.getAttribute('#job', 'data-status')).toBe('done');
    expect(await page.textContent('#job-status')).toMatch(new RegExp(`^Planning job ${id} done in (\\d+ s|under 1 s): 1 route, 1 unassigned\\.$`));
    // the page polled the job it started, and drew the new route
    const posted = requests.slice(before).filter((r) => r.url.endsWith(`${PUBLIC}/planning/jobs/`));
    expect(posted).toHaveLength(1);
    expect(requests.slice(before).some((r) => /\/planning\/jobs\/\d+\/$/.test(r.url))).toBe(true);
    await waitCount('path.route-line', 3);
    await waitCount('#unassigned li[data-order]', 2);
    const heavy = await page.textContent('#unassigned');
    expect(heavy).toContain('WEB-HEAVY');
    expect(heavy).toContain('capacity: not enough load capacity or volume');
    expect(await page.textContent('#plan')).toBe(`Plan 1 new order of ${DATE}`);

    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'dispatcher.png') });
  });

  it('keeps the key in sessionStorage and in the Authorization header only, and talks to 127.0.0.1 only', async () => {
    expect(await page.evaluate("sessionStorage.getItem('delivery-planner.api-key')")).toBe(seeded.key);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(requests.length).toBeGreaterThan(10);
    for (const r of requests) {
      expect(new URL(r.url).hostname).toBe('127.0.0.1');
      expect(r.url).not.toContain(seeded.key);
      expect(decodeURIComponent(r.url)).not.toContain(seeded.key);
    }
    const apiCalls = requests.filter((r) => new URL(r.url).pathname.startsWith('/api/'));
    expect(apiCalls.length).toBeGreaterThan(5);
    // every API call carries the key typed: the wrong one first, then the right one
    const wrong = apiCalls.filter((r) => r.authorization === 'Api-Key dpk_not-a-key').length;
    expect(wrong).toBeGreaterThan(0);
    expect(apiCalls.slice(0, wrong).every((r) => r.authorization === 'Api-Key dpk_not-a-key')).toBe(true);
    expect(apiCalls.slice(wrong).every((r) => r.authorization === `Api-Key ${seeded.key}`)).toBe(true);
    // the tiles were asked of the configured (closed) local URL
    expect(requests.some((r) => r.url.startsWith(`http://127.0.0.1:${tilesPort}/`))).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('forgets the key on request, and says what a key without a scope may not do (403)', async () => {
    await page.click('#forget-key');
    await page.waitForSelector('#key-form', { state: 'visible' });
    expect(await page.evaluate("sessionStorage.getItem('delivery-planner.api-key')")).toBeNull();
    expect(await count('path.route-line')).toBe(0);

    const store = Store.open(seeded.db);
    const routesOnly = store.apiKeys.create({ company_id: seeded.company.id, scopes: ['routes:read'] }, new Date().toISOString()).key;
    store.close();
    await page.fill('#key-input', routesOnly);
    await page.click('#key-form button');
    await page.waitForSelector('#message:has-text("This API key may not do that: You do not have permission to perform this action (requires scope orders:read).")');
    await waitCount('path.route-line', 3); // what the key may read is still shown
    expect(await page.evaluate("sessionStorage.getItem('delivery-planner.api-key')")).toBe(routesOnly);
  });

  it('says when to come back when the request limit is reached (429)', async () => {
    const other = seedDb({ vehicles: 1 });
    const limited = await startServe(other.db, ['--workers', '1', '--geocoder', 'none', '--rate-limit', '1']);
    const tab = await context.newPage(); // a new tab: its own sessionStorage, no key yet
    try {
      await tab.goto(`${limited.base}/app/#date=${DATE}`);
      await tab.fill('#key-input', other.key);
      await tab.click('#key-form button');
      // one request a minute: the page's second call (routes and orders go together) is refused
      await tab.waitForSelector('#message:has-text("Too many requests: Request was throttled. Expected available in")');
      expect(await tab.textContent('#message')).toMatch(/^Too many requests: Request was throttled\. Expected available in \d+ seconds\.$/);
      expect(await tab.isVisible('#session')).toBe(true); // the key is kept: it was not refused
    } finally {
      await tab.close();
      expect(await limited.kill('SIGTERM')).toBe(0);
      rmSync(other.dir, { recursive: true, force: true });
    }
  });
});
