// The dispatcher page: the routes of a date on a map, their unassigned orders, a route's tracking
// and a planning job for the date's new orders. Plain DOM code on the public API; Leaflet (the
// global L) draws the map. The API key is typed once and kept in sessionStorage (gone when the tab
// closes); it only ever travels in the Authorization header, never in a URL.
'use strict';
(function () {
  const KEY = 'delivery-planner.api-key';
  const JOB = 'delivery-planner.job';
  const REASONS = 'delivery-planner.unassigned'; // order id -> reason, from the jobs seen in this tab
  const API = new URL('../api/public/v1/', location.href);
  const INTERNAL = new URL('../api/internal/v1/', location.href); // the dispatch API
  const TRACKING_EVERY_MS = 30_000; // the contract: data does not change more often
  const JOB_POLL_MS = 1_000;
  const MAX_JOB_ORDERS = 500;
  const REASON_TEXT = {
    capacity: 'capacity: not enough load capacity or volume',
    time_window: 'time window: its delivery interval cannot be met',
    max_distance: 'max distance: the vehicles’ mileage limit',
    max_duration: 'max duration: the shift would last too long',
    max_orders: 'max orders: too many orders per route',
    requirements: 'requirements: no vehicle has the features it needs',
    no_vehicle: 'no vehicle: no free vehicle on this date',
    unroutable: 'unroutable: no road reaches it',
  };

  const $ = (id) => document.getElementById(id);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
  const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  const state = {
    date: '',
    routes: [], // route details (with stops), ascending id
    orders: [], // new orders of the date
    selected: null, // route id
    seq: 0, // the current load; older answers are dropped
    trackingTimer: 0,
    jobTimer: 0,
    vans: [], // the company's vehicles with their route on the date (dispatch API), or null without the scope
    replan: null, // { id, before }: the re-plan job followed now and where each order was before it
    confirming: null, // the van whose "out of service" waits for its confirming click
  };

  // ---- the API -------------------------------------------------------------------------------
  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  function readable(status, body, retryAfter) {
    let detail = '';
    if (body && typeof body.detail === 'string') detail = body.detail;
    else if (body && typeof body === 'object') {
      detail = Object.entries(body).map(([field, msgs]) => `${field}: ${[].concat(msgs).join(' ')}`).join('; ');
    }
    switch (status) {
      case 401: return `The API key was not accepted: ${detail || 'unauthorised.'} Enter a valid key.`;
      case 403: return `This API key may not do that: ${detail || 'forbidden.'}`;
      case 429: return `Too many requests: ${detail || `try again in ${retryAfter || 'a few'} seconds.`}`;
      case 503: return `The service is busy: ${detail || 'try again shortly.'}`;
      default: return `The server answered ${status}: ${detail || 'no detail.'}`;
    }
  }

  async function api(method, path, body, headers = {}, base = API) {
    const key = sessionStorage.getItem(KEY);
    if (!key) throw new ApiError(401, 'Enter an API key first.');
    const url = new URL(path, base);
    if (url.origin !== location.origin) throw new ApiError(0, `Refusing to send the key to ${url.origin}.`);
    let res;
    try {
      res = await fetch(url, {
        method,
        headers: {
          Authorization: `Api-Key ${key}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch (err) {
      throw new ApiError(0, `The server cannot be reached (${err.message}).`);
    }
    const text = await res.text();
    let data;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!res.ok) throw new ApiError(res.status, readable(res.status, data, res.headers.get('retry-after')));
    return data;
  }

  /** Every item of a paginated list, following `next` (same origin only). */
  async function allPages(path, base = API) {
    const items = [];
    let next = path;
    while (next) {
      const page = await api('GET', next, undefined, {}, base);
      items.push(...page.results);
      next = page.next;
    }
    return items;
  }

  // ---- messages ------------------------------------------------------------------------------
  function say(text, kind = 'error') {
    const box = $('message');
    box.textContent = text;
    box.className = kind;
    box.hidden = !text;
  }

  function fail(err) {
    say(err.message);
    if (err.status === 401) forgetKey(false);
  }

  // ---- the map -------------------------------------------------------------------------------
  const map = L.map('map', { zoomControl: true, attributionControl: true }).setView([20, 0], 2);
  L.control.scale({ imperial: false }).addTo(map);
  const layers = L.layerGroup().addTo(map);
  map.on('click', (e) => {
    $('quote-lat').value = e.latlng.lat.toFixed(6);
    $('quote-lon').value = e.latlng.lng.toFixed(6);
  });
  let vehicleMarker = null;

  function mapNote(text) {
    $('map-note').textContent = text;
    $('map-note').hidden = !text;
  }

  (function tiles() {
    const template = meta('tiles');
    if (!template) {
      mapNote('No map tiles configured (serve --tiles URL-TEMPLATE): routes on a plain background.');
      return;
    }
    const host = new URL(template.replace('{s}.', 'a.')).host;
    const layer = L.tileLayer(template, { maxZoom: 19, attribution: escapeHtml(meta('tiles-attribution') || `tiles: ${host}`) });
    let loaded = false;
    layer.on('tileload', () => {
      loaded = true;
      mapNote('');
    });
    layer.on('tileerror', () => {
      if (!loaded) mapNote(`Map tiles could not be loaded from ${host}: routes on a plain background.`);
    });
    layer.addTo(map);
  })();

  function popup(lines) {
    const box = el('div');
    for (const line of lines) box.append(el('div', '', line));
    return box;
  }

  const time = (iso) => (iso ? new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '–');

  function draw(fit) {
    layers.clearLayers();
    const points = [];
    state.routes.forEach((route, i) => {
      const colour = `route-c${i % 8}`;
      const latlngs = route.stops.map((s) => [Number(s.lat), Number(s.lon)]);
      points.push(...latlngs);
      const line = L.polyline(latlngs, {
        className: `route-line ${colour}${route.id === state.selected ? ' selected' : ''}`,
        weight: 4,
        opacity: 0.85,
      });
      line.bindTooltip(el('span', '', route.name), { sticky: true });
      line.on('click', () => select(route.id));
      layers.addLayer(line);
      let n = 0;
      for (const stop of route.stops) {
        const depot = stop.stop_type !== 'order';
        const label = depot ? 'D' : String(++n);
        const size = depot ? 18 : 22;
        const marker = L.marker([Number(stop.lat), Number(stop.lon)], {
          icon: L.divIcon({ className: `stop-marker ${colour} status-${stop.status}${depot ? ' depot' : ''}`, html: label, iconSize: [size, size] }),
          title: `${route.name}: ${depot ? stop.stop_type.replace('_', ' ') : `stop ${label}`} (${stop.status})`,
          zIndexOffset: depot ? -1000 : 0,
        });
        marker.on('add', () => {
          const node = marker.getElement();
          node.dataset.route = String(route.id);
          node.dataset.stop = String(stop.id);
        });
        marker.bindPopup(
          popup([
            `${route.name}, ${depot ? stop.stop_type.replace('_', ' ') : `stop ${label}`}`,
            stop.order_external_id ? `order ${stop.order_external_id} (#${stop.order_id})` : '',
            stop.address,
            `planned ${time(stop.planned_arrival_at)}, status ${stop.status.replace('_', ' ')}`,
          ].filter(Boolean)),
        );
        layers.addLayer(marker);
      }
    });
    for (const order of state.orders) {
      if (order.lat === null) continue;
      const at = [Number(order.lat), Number(order.lon)];
      points.push(at);
      const marker = L.circleMarker(at, { className: 'unassigned-marker', radius: 6, color: '#c0392b', weight: 2, fillColor: '#fff', fillOpacity: 1 });
      marker.bindPopup(popup([`unassigned: ${order.external_id || `#${order.id}`}`, order.address, reasonOf(order)]));
      layers.addLayer(marker);
    }
    if (vehicleMarker) layers.addLayer(vehicleMarker);
    if (fit && points.length > 0) map.fitBounds(points, { padding: [30, 30], maxZoom: 15 });
  }

  // ---- the lists -----------------------------------------------------------------------------
  function minutes(total) {
    const h = Math.floor(total / 60);
    return h > 0 ? `${h} h ${total % 60} min` : `${total} min`;
  }

  function renderRoutes() {
    const list = $('routes');
    list.replaceChildren();
    $('route-count').textContent = `(${state.routes.length})`;
    if (state.routes.length === 0) list.append(el('li', 'empty', 'No routes on this date.'));
    state.routes.forEach((route, i) => {
      const orders = route.stops.filter((s) => s.stop_type === 'order');
      const item = el('li', `route-c${i % 8}${route.id === state.selected ? ' selected' : ''}`);
      item.dataset.route = String(route.id);
      item.tabIndex = 0;
      item.append(
        el('div', 'name', `${route.name}`),
        el('div', 'figures', `${route.status}${route.has_vehicle ? ', vehicle assigned' : ''} · ${orders.length} stops · ${time(orders[0]?.planned_arrival_at)}–${time(orders.at(-1)?.planned_arrival_at)}`),
        el('div', 'figures', `${route.planned_mileage_km} km · ${minutes(route.planned_duration_min)} · load ${Number(route.total_weight_kg)} kg, ${Number(route.total_volume_m3)} m³`),
      );
      item.addEventListener('click', () => select(route.id));
      item.addEventListener('keydown', (e) => e.key === 'Enter' && select(route.id));
      list.append(item);
    });
  }

  function reasons() {
    try {
      return JSON.parse(sessionStorage.getItem(REASONS) || '{}');
    } catch {
      return {};
    }
  }

  function reasonOf(order) {
    if (order.lat === null) return 'no coordinates yet: geocoding is pending or the address is unknown; planning leaves it out';
    const reason = reasons()[order.id];
    if (reason) return REASON_TEXT[reason] || reason;
    return 'not planned yet';
  }

  function plannable() {
    return state.orders.filter((o) => o.lat !== null);
  }

  function renderOrders() {
    const list = $('unassigned');
    list.replaceChildren();
    $('unassigned-count').textContent = `(${state.orders.length})`;
    if (state.orders.length === 0) list.append(el('li', 'empty', 'No new orders on this date.'));
    for (const order of state.orders) {
      const item = el('li');
      item.dataset.order = String(order.id);
      item.append(
        el('div', 'name', `${order.external_id || 'order'} (#${order.id}) · ${Number(order.weight)} kg`),
        el('div', '', order.address),
        el('div', 'why', reasonOf(order)),
      );
      list.append(item);
    }
    const n = Math.min(plannable().length, MAX_JOB_ORDERS);
    const button = $('plan');
    button.disabled = n === 0 || state.jobTimer !== 0;
    // a re-plan needs routes to re-plan (new orders alone are what "Plan" is for)
    $('replan').disabled = state.jobTimer !== 0 || !state.routes.some((r) => r.status === 'planned' || r.status === 'active');
    button.textContent = n === 0 ? 'No new orders to plan' : `Plan ${n} new order${n === 1 ? '' : 's'} of ${state.date}`;
  }

  // ---- loading a date ------------------------------------------------------------------------
  async function load(fit = true) {
    const seq = ++state.seq;
    const date = state.date;
    say('Loading…', 'info');
    let problem = null;
    const [routes, orders] = await Promise.all([
      allPages(`routes/?date=${date}&page_size=200`)
        .then((list) => Promise.all(list.sort((a, b) => a.id - b.id).map((r) => api('GET', `routes/${r.id}/`))))
        .catch((err) => ((problem ??= err), [])),
      // the orders list has no date filter: the date's new orders are picked from all new ones
      allPages('orders/?status=new&page_size=200')
        .then((list) => list.filter((o) => o.delivery_date === date).sort((a, b) => a.id - b.id))
        .catch((err) => ((problem ??= err), [])),
    ]);
    // the vans need dispatch:write: a key without it sees the rest of the page all the same
    const vans = await allPages(`vehicles/?date=${date}&page_size=200`, INTERNAL).catch((err) => {
      if (err.status !== 403) problem ??= err;
      return null;
    });
    if (seq !== state.seq) return;
    state.routes = routes;
    state.orders = orders;
    state.vans = vans;
    renderVans();
    if (!routes.some((r) => r.id === state.selected)) selectNone();
    renderRoutes();
    renderOrders();
    draw(fit);
    if (problem) fail(problem);
    else say('');
  }

  // ---- tracking ------------------------------------------------------------------------------
  function selectNone() {
    state.selected = null;
    clearInterval(state.trackingTimer);
    state.trackingTimer = 0;
    vehicleMarker = null;
    $('tracking').hidden = true;
  }

  function select(id) {
    selectNone();
    state.selected = id;
    $('tracking').hidden = false;
    $('tracking-route').textContent = `(${state.routes.find((r) => r.id === id)?.name ?? id})`;
    $('tracking-status').textContent = 'Loading…';
    renderRoutes();
    draw(false);
    void refreshTracking();
    state.trackingTimer = setInterval(refreshTracking, TRACKING_EVERY_MS);
  }

  async function refreshTracking() {
    const id = state.selected;
    const out = $('tracking-status');
    try {
      const [tracking, route] = await Promise.all([api('GET', `routes/${id}/tracking/`), api('GET', `routes/${id}/`)]);
      if (state.selected !== id) return;
      const i = state.routes.findIndex((r) => r.id === id);
      if (i >= 0) state.routes[i] = route;
      const p = tracking.progress;
      const lines = [`${tracking.status}: ${p.completed} of ${p.total} orders done, ${p.remaining} to go.`];
      const pos = tracking.last_position;
      if (pos) {
        lines.push(`Last position ${pos.lat.toFixed(5)}, ${pos.lon.toFixed(5)} at ${new Date(pos.timestamp).toLocaleTimeString()} (${pos.speed_kmh} km/h).`);
        vehicleMarker = L.marker([pos.lat, pos.lon], {
          icon: L.divIcon({ className: 'vehicle-marker', iconSize: [18, 18] }),
          title: `vehicle of ${route.name}`,
          zIndexOffset: 1000,
        });
      } else {
        lines.push('No position yet (no vehicle assigned, or it has sent none).');
        vehicleMarker = null;
      }
      lines.push(`Updated ${new Date().toLocaleTimeString()}; refreshed every 30 s.`);
      out.replaceChildren(...lines.map((line) => el('span', '', line + ' ')));
      renderRoutes();
      draw(false);
    } catch (err) {
      if (state.selected !== id) return;
      out.textContent = err.message;
      if (err.status === 401) fail(err);
    }
  }

  // ---- planning ------------------------------------------------------------------------------
  function randomKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return 'page-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  async function plan() {
    const ids = plannable().slice(0, MAX_JOB_ORDERS).map((o) => o.id);
    if (ids.length === 0) return;
    $('plan').disabled = true;
    try {
      // the button stays disabled until the job ends; the Idempotency-Key makes the one retry after
      // a lost answer (the network failed, not the server) return the job the first try started
      const body = { order_ids: ids };
      const headers = { 'Idempotency-Key': randomKey() };
      const job = await api('POST', 'planning/jobs/', body, headers).catch((err) => {
        if (err.status !== 0) throw err;
        return api('POST', 'planning/jobs/', body, headers);
      });
      follow(job, state.date);
    } catch (err) {
      fail(err);
      renderOrders();
    }
  }

  /** Shows a job and polls it until it has finished; then its reasons are kept and the date reloaded. */
  function follow(job, date) {
    sessionStorage.setItem(JOB, JSON.stringify({ id: job.job_id, date, started: Date.now() }));
    showJob(job, Date.now());
    pollJob();
  }

  /** A job asked for by its id (one an integrator started): its state, and its reasons once done. */
  async function lookUpJob(id) {
    try {
      const job = await api('GET', `planning/jobs/${id}/`);
      clearTimeout(state.jobTimer);
      state.jobTimer = 0;
      $('job-id').value = '';
      follow(job, state.date);
    } catch (err) {
      if (err.status === 404) say(`There is no planning job ${id} for this key's company.`);
      else fail(err);
    }
  }

  function showJob(job, started) {
    $('job').hidden = false;
    const bar = $('job-progress');
    const finished = job.status === 'done' || job.status === 'failed';
    // a finished job took from its creation to its last change; a running one, since we saw it start
    const secs = Math.round((finished ? Date.parse(job.updated_at) - Date.parse(job.created_at) : Date.now() - started) / 1000);
    const took = secs < 1 ? 'under 1 s' : `${secs} s`;
    if (finished) {
      bar.max = 1;
      bar.value = 1;
    } else bar.removeAttribute('value'); // indeterminate: the job does not report a fraction
    const label = state.replan?.id === job.job_id ? 'Re-plan job' : 'Planning job';
    let text = `${label} ${job.job_id}: ${job.status} (${secs} s)`;
    if (job.status === 'done') {
      const s = job.result.summary;
      text = `Planning job ${job.job_id} done in ${took}: ${s.route_count} route${s.route_count === 1 ? '' : 's'}, ${s.unassigned_count} unassigned.`;
    } else if (job.status === 'failed') text = `${label} ${job.job_id} failed: ${job.error}`;
    $('job-status').textContent = text;
    $('job').dataset.status = job.status;
  }

  function pollJob() {
    const saved = JSON.parse(sessionStorage.getItem(JOB) || 'null');
    if (!saved) return;
    const current = () => JSON.parse(sessionStorage.getItem(JOB) || 'null')?.id === saved.id;
    const tick = async () => {
      let delay = JOB_POLL_MS;
      try {
        const job = await api('GET', `planning/jobs/${saved.id}/`);
        if (!current()) return; // another job is followed now
        showJob(job, saved.started);
        if (job.status === 'done' || job.status === 'failed') {
          sessionStorage.removeItem(JOB);
          state.jobTimer = 0;
          if (job.status === 'done') {
            const known = reasons();
            for (const u of job.result.unassigned) known[u.order_id] = u.reason;
            sessionStorage.setItem(REASONS, JSON.stringify(known));
          }
          if (saved.date === state.date) await load(false);
          else renderOrders();
          if (state.replan?.id === saved.id) {
            if (job.status === 'done' && saved.date === state.date) showMoves(job);
            state.replan = null;
          }
          renderVans();
          return;
        }
      } catch (err) {
        fail(err);
        if (err.status === 401 || err.status === 403 || err.status === 404) {
          sessionStorage.removeItem(JOB);
          state.jobTimer = 0;
          renderOrders();
          return;
        }
        if (err.status === 429) delay = 5_000;
      }
      state.jobTimer = setTimeout(tick, delay);
    };
    state.jobTimer = setTimeout(tick, JOB_POLL_MS);
  }

  // ---- the day as it happens: vans, re-planning, quotes ----------------------------------------
  function renderVans() {
    const list = $('vans');
    list.replaceChildren();
    if (state.vans === null) {
      $('fleet-count').textContent = '';
      list.append(el('li', 'empty', 'The vans need a key with dispatch:write.'));
      return;
    }
    $('fleet-count').textContent = `(${state.vans.length})`;
    if (state.vans.length === 0) list.append(el('li', 'empty', 'No vehicles.'));
    for (const van of state.vans) {
      const route = state.routes.find((r) => r.id === van.route_id);
      const item = el('li');
      item.dataset.vehicle = String(van.id);
      const text = el('div');
      text.append(
        el('div', 'name', van.name),
        el('div', 'figures', !van.active ? 'inactive' : route ? `${route.name}: ${route.status}` : van.route_id ? `route ${van.route_id}: ${van.route_status}` : 'no route on this date'),
      );
      item.append(text);
      if (van.route_status === 'planned' || van.route_status === 'active') {
        const confirming = state.confirming === van.id;
        const button = el('button', confirming ? 'confirm' : '', confirming ? 'Confirm: out of service' : 'Out of service');
        button.type = 'button';
        button.disabled = state.jobTimer !== 0;
        button.addEventListener('click', () => void outOfService(van));
        item.append(button);
      }
      list.append(item);
    }
  }

  /** Where each order of the date's routes is now: order id -> route name. */
  function placement() {
    const at = new Map();
    for (const route of state.routes) for (const stop of route.stops) if (stop.order_id !== null) at.set(stop.order_id, route.name);
    return at;
  }

  /** Starts a re-plan job (POST to the dispatch API) and follows it; what moved is shown when it ends. */
  async function startReplan(path, body) {
    $('replan').disabled = true;
    try {
      const job = await api('POST', path, body, {}, INTERNAL);
      state.replan = { id: job.job_id, before: placement(), external: new Map(state.routes.flatMap((r) => r.stops.filter((s) => s.order_id !== null).map((s) => [s.order_id, s.order_external_id]))) };
      for (const o of state.orders) state.replan.external.set(o.id, o.external_id);
      $('moves').hidden = true;
      follow(job, state.date);
      renderVans();
    } catch (err) {
      fail(err);
      renderOrders();
    }
  }

  async function outOfService(van) {
    if (state.confirming !== van.id) {
      // one click arms, the second sends: a van out of service moves its whole day
      state.confirming = van.id;
      renderVans();
      return;
    }
    state.confirming = null;
    // out from now on today; from the start of the day on a later date (in this browser's zone)
    const body = state.date > today() ? { from: new Date(`${state.date}T00:00:00`).toISOString() } : {};
    await startReplan(`vehicles/${van.id}/unavailable`, body);
  }

  function showMoves(job) {
    const list = $('moves');
    list.replaceChildren();
    const { before, external } = state.replan;
    const after = placement();
    const name = (id) => (external.get(id) ? `${external.get(id)} (#${id})` : `#${id}`);
    let moved = 0;
    let placed = 0;
    for (const [id, route] of after) {
      const was = before.get(id);
      if (was === undefined) {
        placed++;
        list.append(el('li', 'placed', `order ${name(id)} placed on ${route}`));
      } else if (was !== route) {
        moved++;
        list.append(el('li', 'moved', `order ${name(id)}: ${was} → ${route}`));
      }
    }
    const unplaced = job.result.unassigned || [];
    for (const u of unplaced) list.append(el('li', 'unplaced', `order ${name(u.order_id)} could not be placed: ${REASON_TEXT[u.reason] || u.reason}`));
    if (list.children.length === 0) list.append(el('li', 'empty', 'Nothing had to move.'));
    list.hidden = false;
    $('job-status').textContent = `Re-plan job ${job.job_id} done: ${moved} order${moved === 1 ? '' : 's'} moved to another route, ${placed} placed, ${unplaced.length} could not be placed.`;
  }

  async function quote() {
    const out = $('quote-answer');
    const lat = Number($('quote-lat').value);
    const lon = Number($('quote-lon').value);
    const weight = $('quote-weight').value.trim();
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || $('quote-lat').value.trim() === '' || $('quote-lon').value.trim() === '') {
      out.className = 'infeasible';
      out.textContent = 'Give a point: latitude and longitude (or click the map).';
      out.hidden = false;
      return;
    }
    const body = { date: state.date, lat, lon };
    if (weight !== '' && Number(weight) > 0) body.weight = Number(weight);
    if ($('quote-from').value) body.time_window_start = $('quote-from').value;
    if ($('quote-to').value) body.time_window_end = $('quote-to').value;
    out.hidden = false;
    out.className = '';
    out.textContent = 'Asking…';
    try {
      const q = await api('POST', 'planning/quote', body, {}, INTERNAL);
      if (q.feasible) {
        const route = state.routes.find((r) => r.id === q.route_id);
        out.className = 'feasible';
        out.textContent = `Yes: at ${time(q.eta)} on ${route ? route.name : `route ${q.route_id}`}, as its stop ${q.position} (+${q.added_km} km, +${q.added_min} min).`;
      } else {
        out.className = 'infeasible';
        out.textContent = `No: ${REASON_TEXT[q.reason] || q.reason}.`;
      }
      out.dataset.feasible = String(q.feasible);
    } catch (err) {
      out.className = 'infeasible';
      out.textContent = err.message;
      if (err.status === 401) fail(err);
    }
  }

  // ---- the key and the date ------------------------------------------------------------------
  function today() {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }

  function start() {
    $('key-form').hidden = true;
    $('session').hidden = false;
    void load();
    pollJob();
  }

  function forgetKey(clearMessage = true) {
    sessionStorage.removeItem(KEY);
    clearTimeout(state.jobTimer);
    state.jobTimer = 0;
    selectNone();
    state.seq++;
    state.routes = [];
    state.orders = [];
    layers.clearLayers();
    $('routes').replaceChildren();
    $('unassigned').replaceChildren();
    $('job').hidden = true;
    $('vans').replaceChildren();
    $('quote-answer').hidden = true;
    $('session').hidden = true;
    $('key-form').hidden = false;
    $('key-input').focus();
    if (clearMessage) say('');
  }

  $('key-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const key = $('key-input').value.trim();
    if (!key) return;
    sessionStorage.setItem(KEY, key);
    $('key-input').value = '';
    start();
  });
  $('forget-key').addEventListener('click', () => forgetKey());
  $('reload').addEventListener('click', () => void load(false));
  $('plan').addEventListener('click', () => void plan());
  $('replan').addEventListener('click', () => void startReplan('planning/replan', { date: state.date }));
  $('quote-form').addEventListener('submit', (e) => {
    e.preventDefault();
    void quote();
  });
  $('job-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('job-id').value.trim();
    if (/^\d{1,15}$/.test(id)) void lookUpJob(id);
  });
  $('date').addEventListener('change', () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test($('date').value)) return;
    state.date = $('date').value;
    history.replaceState(null, '', `#date=${state.date}`);
    selectNone();
    void load();
  });

  const fromHash = /^#date=(\d{4}-\d{2}-\d{2})$/.exec(location.hash);
  state.date = fromHash ? fromHash[1] : today();
  $('date').value = state.date;
  if (sessionStorage.getItem(KEY)) start();
  else $('key-input').focus();
})();
