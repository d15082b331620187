import { afterEach, describe, expect, it } from 'vitest';
import { AddressBook } from '../../src/geocode/address-book.js';
import { NominatimGeocoder, TableGeocoder, type Geocoder } from '../../src/geocode/providers.js';
import { GeocodeWorker } from '../../src/geocode/worker.js';
import { buildApp } from '../../src/http/app.js';
import { BACKENDS } from '../e2e/backends.js';
import { makeAppOn } from '../http/fixture.js';
import { place, startFakeNominatim } from './fake-nominatim.js';

const BOOK = AddressBook.fromCsv(
  'address,lat,lon\n"Alexanderplatz 1, Berlin",52.521918,13.413215\n"Potsdamer Platz 1, Berlin",52.509648,13.376041\n',
);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

// on both stores: the queue's look, leases and turns are each adapter's own SQL
for (const { kind, available } of BACKENDS) describe.skipIf(!available)(`on ${kind}`, () => {
  const makeApp = (options: Parameters<typeof makeAppOn>[1]) => makeAppOn(kind, options);

  /** The app with a geocoding worker wired the way `serve` wires it. */
  async function withWorker(geocoder: Geocoder, options: { retryBaseMs?: number } = {}) {
    let worker: GeocodeWorker | undefined;
    const f = await makeApp({ geocoding: true, onGeocodeQueued: () => worker?.notify() });
    worker = new GeocodeWorker({ store: f.port, geocoder, retryBaseMs: options.retryBaseMs });
    worker.start();
    return { ...f, worker };
  }

  describe('geocoding after the create response, from the persisted queue', () => {
    it('companies take turns: a 20-order upload of one does not hold back the single order of another', async () => {
      const looked: string[] = [];
      const table = new TableGeocoder(BOOK);
      const recording: Geocoder = { name: 'recording', lookup: (address) => (looked.push(address), table.lookup(address)) };
      const f = await makeApp({ geocoding: true });
      cleanup.push(f.close);
      const bulk = await f.inject('POST', '/orders/bulk/', Array.from({ length: 20 }, (_, i) => ({ address: `A street ${i}` })));
      expect(bulk.statusCode).toBe(200);
      expect((await f.inject('POST', '/orders/', { address: 'B street' }, f.otherKey)).statusCode).toBe(201);
      const worker = new GeocodeWorker({ store: f.port, geocoder: recording });
      worker.start();
      cleanup.push(() => worker.stop());
      await worker.whenIdle();
      expect(looked).toHaveLength(21);
      expect(looked.slice(0, 2)).toEqual(['A street 0', 'B street']);
    });

    it('fills lat/lon of created and bulk-created orders; unknown addresses stay null', async () => {
      const f = await withWorker(new TableGeocoder(BOOK));
      cleanup.push(() => f.worker.stop(), f.close);
      const one = await f.inject('POST', '/orders/', { address: 'ALEXANDERPLATZ 1 berlin' });
      expect(one.json()).toMatchObject({ lat: null, lon: null });
      const bulk = await f.inject('POST', '/orders/bulk/', [{ address: 'Potsdamer Platz 1, Berlin' }, { address: 'Nowhere 7' }]);
      const [a, b] = bulk.json().results.map((r: { id: number }) => r.id);
      await f.worker.whenIdle();
      expect((await f.inject('GET', `/orders/${one.json().id}/`)).json()).toMatchObject({ lat: '52.521918', lon: '13.413215' });
      expect((await f.inject('GET', `/orders/${a}/`)).json()).toMatchObject({ lat: '52.509648', lon: '13.376041' });
      expect((await f.inject('GET', `/orders/${b}/`)).json()).toMatchObject({ lat: null, lon: null });
      expect(await f.port.geocodeQueue.count()).toBe(0);
    });

    it('does not geocode orders sent with coordinates; a PATCH of the address geocodes again', async () => {
      const f = await withWorker(new TableGeocoder(BOOK));
      cleanup.push(() => f.worker.stop(), f.close);
      const sent = (await f.inject('POST', '/orders/', { address: 'Alexanderplatz 1, Berlin', lat: 1, lon: 2 })).json();
      await f.worker.whenIdle();
      expect((await f.inject('GET', `/orders/${sent.id}/`)).json()).toMatchObject({ lat: '1.000000', lon: '2.000000' });

      const o = (await f.inject('POST', '/orders/', { address: 'Alexanderplatz 1, Berlin' })).json();
      await f.worker.whenIdle();
      const patched = await f.inject('PATCH', `/orders/${o.id}/`, { address: 'Potsdamer Platz 1, Berlin' });
      expect(patched.statusCode).toBe(200);
      await f.worker.whenIdle();
      expect((await f.inject('GET', `/orders/${o.id}/`)).json()).toMatchObject({ lat: '52.509648', lon: '13.376041' });

      // reset both, then correct the address in a separate request (the contract's recipe)
      await f.inject('PATCH', `/orders/${o.id}/`, { lat: null, lon: null });
      await f.inject('PATCH', `/orders/${o.id}/`, { address: 'Alexanderplatz 1, Berlin' });
      await f.worker.whenIdle();
      expect((await f.inject('GET', `/orders/${o.id}/`)).json()).toMatchObject({ lat: '52.521918', lon: '13.413215' });
    });

    it('a result arriving after the order changed address or was cancelled is not applied', async () => {
      const server = await startFakeNominatim(() => ({ status: 200, body: place('10', '20') }));
      const f = await makeApp({ geocoding: true });
      cleanup.push(f.close, server.close);
      const o1 = (await f.inject('POST', '/orders/', { address: 'Old address' })).json();
      const o2 = (await f.inject('POST', '/orders/', { address: 'Cancelled' })).json();
      const stale = await f.port.geocodeQueue.pending();
      await f.inject('PATCH', `/orders/${o1.id}/`, { address: 'New address', lat: 5, lon: 6 });
      await f.inject('POST', `/orders/${o2.id}/cancel/`);
      expect(await f.port.geocodeQueue.count()).toBe(0);
      // a worker that had already picked the old tasks: their rows are gone, nothing is written
      for (const t of stale) expect(await f.port.orders.applyGeocode(t.order_id, t.address, 1, 1, new Date().toISOString())).toBe(false);
      expect((await f.inject('GET', `/orders/${o1.id}/`)).json()).toMatchObject({ lat: '5.000000', lon: '6.000000' });
    });

    it('a failing provider leaves the task queued with its attempts; a restart picks it up', async () => {
      let up = false;
      const server = await startFakeNominatim(() => (up ? { status: 200, body: place('52.5', '13.4') } : { status: 503 }));
      cleanup.push(server.close);
      const f = await makeApp({ geocoding: true });
      cleanup.push(f.close);
      const o = (await f.inject('POST', '/orders/', { address: 'Flaky street 1' })).json();
      const failing = new GeocodeWorker({
        store: f.port,
        geocoder: new NominatimGeocoder({ url: server.url, minIntervalMs: 0, attempts: 2 }),
        retryBaseMs: 60_000,
      });
      failing.start();
      await failing.whenIdle();
      await failing.stop();
      expect(await f.port.geocodeQueue.pending()).toMatchObject([{ order_id: o.id, attempts: 1, last_error: 'nominatim: HTTP 503' }]);

      // "restart": a new store on the same database, the task is due again (clock moved past the retry)
      const store = await f.reopen();
      cleanup.push(() => store.close());
      up = true;
      const later = () => new Date(Date.now() + 120_000);
      const worker = new GeocodeWorker({
        store,
        geocoder: new NominatimGeocoder({ url: server.url, minIntervalMs: 0 }),
        clock: later,
      });
      const app = buildApp({ store, geocoding: true, onGeocodeQueued: () => worker.notify() });
      cleanup.push(() => app.close());
      worker.start();
      await worker.whenIdle();
      await worker.stop();
      expect(await store.orders.get(f.company.id, o.id)).toMatchObject({ lat_e6: 52_500_000, lon_e6: 13_400_000 });
      expect(await store.geocodeQueue.count()).toBe(0);
    });

    it('with the none provider nothing is queued and coordinates are only as sent', async () => {
      const f = await makeApp({ geocoding: false });
      cleanup.push(f.close);
      await f.inject('POST', '/orders/', { address: 'Alexanderplatz 1, Berlin' });
      await f.inject('POST', '/orders/bulk/', [{ address: 'x' }]);
      expect(await f.port.geocodeQueue.count()).toBe(0);
    });
  });

  describe('geocoding from several processes (leases)', () => {
    it('two workers on one queue look each address up once; every order gets its coordinates', async () => {
      const looked: string[] = [];
      const table = new TableGeocoder(BOOK);
      const slow: Geocoder = {
        name: 'slow',
        lookup: async (address) => {
          looked.push(address);
          await new Promise((r) => setTimeout(r, 5));
          return table.lookup(address);
        },
      };
      const f = await makeApp({ geocoding: true });
      cleanup.push(f.close);
      const addresses = Array.from({ length: 30 }, (_, i) => (i % 2 ? 'Alexanderplatz 1, Berlin' : `Potsdamer Platz 1, Berlin ${'.'.repeat(i)}`));
      expect((await f.inject('POST', '/orders/bulk/', addresses.map((address) => ({ address })))).statusCode).toBe(200);
      const workers = ['one', 'two'].map((owner) => new GeocodeWorker({ store: f.port, geocoder: slow, owner, batchSize: 4 }));
      for (const w of workers) {
        w.start();
        cleanup.push(() => w.stop());
      }
      while ((await f.port.geocodeQueue.count()) > 0) await new Promise((r) => setTimeout(r, 10));
      await Promise.all(workers.map((w) => w.whenIdle()));
      expect(looked).toHaveLength(30);
      const orders = (await f.inject('GET', '/orders/?page_size=100')).json().results as Array<{ lat: string | null }>;
      expect(orders.filter((o) => o.lat !== null)).toHaveLength(30);
    });

    it('tasks claimed by a process that died wait for its lease to run out, then another process takes them', async () => {
      const looked: string[] = [];
      const table = new TableGeocoder(BOOK);
      const recording: Geocoder = { name: 'recording', lookup: (address) => (looked.push(address), table.lookup(address)) };
      const f = await makeApp({ geocoding: true });
      cleanup.push(f.close);
      expect((await f.inject('POST', '/orders/', { address: 'Alexanderplatz 1, Berlin' })).statusCode).toBe(201);
      const now = Date.now();
      const claimed = await f.port.geocodeQueue.due(new Date(now).toISOString(), 10, { owner: 'dead', until: new Date(now + 400).toISOString() });
      expect(claimed).toHaveLength(1);
      const worker = new GeocodeWorker({ store: f.port, geocoder: recording, owner: 'alive', pollMs: 20 });
      worker.start();
      cleanup.push(() => worker.stop());
      await new Promise((r) => setTimeout(r, 100));
      expect(looked).toEqual([]); // still the dead process's
      while ((await f.port.geocodeQueue.count()) > 0) await new Promise((r) => setTimeout(r, 10));
      expect(looked).toEqual(['Alexanderplatz 1, Berlin']);
    });
  });
});
