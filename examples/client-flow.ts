/**
 * The client flow of section 1 of the contract with the typed client (`delivery-planner/client`):
 * bulk-upload orders for a day (keeping external_id -> id), create one more on its own, wait until
 * geocoding filled lat/lon, start a planning job with external_ids, poll it, read each route and its
 * stops, and a route's tracking. Every value is typed from the OpenAPI document; nothing is cast.
 *
 *   npx tsx examples/client-flow.ts http://127.0.0.1:8080 dpk_... [YYYY-MM-DD]
 *
 * test/client/client.test.ts runs it against the real server.
 */
import { createPlannerClient, hasResult, type OrderInput, type PlannerClient, type PlanningJob, type PlanningJobResult, type Route, type Tracking } from '../src/client.js';

export interface FlowResult {
  /** external_id -> order id, from the bulk answer. */
  ids: Map<string, number>;
  /** Orders refused (index in `orders` -> field errors), to show an operator. */
  refused: Map<number, Record<string, string[]>>;
  /** external_ids still without coordinates when planning started. */
  unlocated: string[];
  job: PlanningJob & { result: PlanningJobResult };
  routes: Route[];
  /** Orders of the job's input in no route and not unassigned: dropped for lack of coordinates. */
  dropped: number[];
  tracking: Tracking;
}

/** Throws with the documented error body when a call was not a success. */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) throw new Error(`${what}: HTTP ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runClientFlow(api: PlannerClient, orders: OrderInput[], options: { pollMs?: number; geocodeWaitMs?: number; expectLocated?: number } = {}): Promise<FlowResult> {
  const pollMs = options.pollMs ?? 10_000;

  // 1. one order on its own (201 created, 200 when its external_id exists), the rest in bulk;
  // keep external_id -> id, show the refused items to an operator
  const [single, ...rest] = orders;
  const ids = new Map<string, number>();
  const refused = new Map<number, Record<string, string[]>>();
  if (single) {
    const created = await api.POST('/api/public/v1/orders/', { body: single });
    const order = ok(created, 'create');
    if (order.external_id !== null) ids.set(order.external_id, order.id);
  }
  const bulk = rest.length > 0 ? ok(await api.POST('/api/public/v1/orders/bulk/', { body: rest }), 'bulk') : undefined;
  for (const item of bulk?.results ?? []) {
    if (item.status === 'error') refused.set(item.index + 1, item.errors ?? {});
    else if (item.id !== null && item.external_id !== null) ids.set(item.external_id, item.id);
  }

  // 2. later: check that lat and lon are filled (geocoding runs after the answer); an address the
  // geocoder does not know stays empty: show those to an operator (fix them with PATCH)
  const deadline = Date.now() + (options.geocodeWaitMs ?? 120_000);
  const wanted = options.expectLocated ?? ids.size;
  let unlocated: string[] = [];
  for (;;) {
    const page = ok(await api.GET('/api/public/v1/orders/', { params: { query: { status: 'new', page_size: 200 } } }), 'list');
    const mine = page.results.filter((o) => o.external_id !== null && ids.has(o.external_id));
    unlocated = mine.filter((o) => o.lat === null || o.lon === null).map((o) => o.external_id ?? '');
    if (mine.length - unlocated.length >= wanted || Date.now() > deadline) break;
    await sleep(Math.min(pollMs, 1_000));
  }

  // 3. start a planning job with external_ids; keep job_id at once (it cannot be listed)
  let job = ok(await api.POST('/api/public/v1/planning/jobs/', { body: { external_ids: [...ids.keys()] } }), 'plan');

  // 4. poll the job (or wait for the planning_job.finished webhook)
  while (job.status === 'queued' || job.status === 'running') {
    await sleep(pollMs);
    job = ok(await api.GET('/api/public/v1/planning/jobs/{id}/', { params: { path: { id: job.job_id } } }), 'poll');
  }
  if (!hasResult(job)) throw new Error(`the job ${job.status}: ${job.error}`);

  // 5. and 6. read each route: its stops name the client's document number and planned arrival
  const routes: Route[] = [];
  for (const id of job.result.route_ids) {
    routes.push(ok(await api.GET('/api/public/v1/routes/{id}/', { params: { path: { id } } }), `route ${id}`));
  }
  const placed = new Set(routes.flatMap((r) => r.stops.map((s) => s.order_id)));
  const unassigned = new Set(job.result.unassigned.map((u) => u.order_id));
  const dropped = job.input.order_ids.filter((id) => !placed.has(id) && !unassigned.has(id));

  // tracking of the first route (poll at most every 30 s)
  const first = routes[0];
  if (!first) throw new Error('no route was built');
  const tracking = ok(await api.GET('/api/public/v1/routes/{id}/tracking/', { params: { path: { id: first.id } } }), 'tracking');
  return { ids, refused, unlocated, job, routes, dropped, tracking };
}

// as a script: node --import tsx examples/client-flow.ts BASE_URL KEY [DATE]
if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, apiKey, date = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)] = process.argv.slice(2);
  if (!baseUrl || !apiKey) throw new Error('usage: client-flow.ts BASE_URL API_KEY [YYYY-MM-DD]');
  const api = createPlannerClient({ baseUrl, apiKey });
  const addresses = ['Alexanderplatz 1, 10178 Berlin', 'Unter den Linden 77, 10117 Berlin', 'Pariser Platz 1, 10117 Berlin'];
  const result = await runClientFlow(api, addresses.map((address, i) => ({ external_id: `EX-${i + 1}`, address, delivery_date: date, weight: '5' })), { pollMs: 1_000 });
  for (const route of result.routes) {
    console.log(`${route.name}: ${route.planned_mileage_km} km, ${route.planned_duration_min} min`);
    for (const stop of route.stops) console.log(`  ${stop.position}. ${stop.order_external_id ?? stop.stop_type} ${stop.planned_arrival_at ?? ''}`);
  }
}
