/**
 * Health, readiness and metrics on the API app (docs/contract/operations.md, "Health, readiness, metrics and
 * request ids"; issue 38), on both stores: the backlog gauges read the store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readiness } from '../../src/http/health.js';
import { PlannerMetrics } from '../../src/http/metrics.js';
import { processReadiness, storeBacklogs } from '../../src/service/ops.js';
import { postgres } from '../helpers/postgres.js';
import { makeAppOn } from './fixture.js';

/** The value of one series in a Prometheus text answer (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && !postgres.available)(`health, readiness and metrics (${kind})`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const f of cleanup.splice(0).reverse()) await f();
    });

    it('/healthz and /readyz need no key and count against no limit; /readyz turns 503 with a reason when draining', async () => {
      const metrics = new PlannerMetrics();
      const f = await makeAppOn(kind, { geocoding: false, rateLimit: 2, metrics });
      cleanup.push(() => f.close());
      for (let i = 0; i < 5; i++) {
        const health = await f.app.inject({ method: 'GET', url: '/healthz' });
        expect(health.statusCode).toBe(200);
        expect(health.json()).toEqual({ status: 'ok' });
        expect(health.headers['ratelimit-limit']).toBeUndefined();
        const ready = await f.app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready' });
      }
      // the key's budget of 2 is untouched
      expect((await f.inject('GET', '/orders/')).headers['ratelimit-remaining']).toBe('1');
    });

    it('/readyz: 503 while draining, and while the store does not answer', async () => {
      const f = await makeAppOn(kind, { geocoding: false });
      cleanup.push(() => f.close());
      const state = readiness(processReadiness(f.port));
      const g = await makeAppOn(kind, { geocoding: false, readiness: state });
      cleanup.push(() => g.close());
      expect((await g.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      state.draining = true;
      const draining = await g.app.inject({ method: 'GET', url: '/readyz' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toEqual({ status: 'not_ready', reason: 'shutting down' });
      expect((await g.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      // a closed store does not answer
      const closed = await makeAppOn(kind, { geocoding: false });
      await closed.port.close();
      const gone = await closed.app.inject({ method: 'GET', url: '/readyz' });
      await closed.app.close();
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toMatchObject({ status: 'not_ready', reason: expect.stringMatching(/^the store does not answer/) });
    });

    it('/metrics: Prometheus text, no key; requests by route template, method and status; 429s; the backlogs from the store', async () => {
      const metrics = new PlannerMetrics();
      const f = await makeAppOn(kind, { geocoding: true, metrics, rateLimit: 3 });
      cleanup.push(() => f.close());
      storeBacklogs(metrics, f.port);
      await f.port.webhooks.create({ company_id: f.company.id, url: 'http://127.0.0.1:9/hook', events: ['order.status_changed'] }, new Date().toISOString());
      const order = (await f.inject('POST', '/orders/', { address: 'Alexanderplatz 1' })).json();
      expect((await f.inject('POST', `/orders/${order.id}/cancel/`)).statusCode).toBe(200);
      expect((await f.inject('GET', `/orders/${order.id}/`)).statusCode).toBe(200);
      expect((await f.inject('GET', `/orders/${order.id}/`)).statusCode).toBe(429);
      const res = await f.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = res.body;
      expect(sample(text, 'planner_http_requests_total{route="/api/public/v1/orders/",method="POST",status="201"}')).toBe(1);
      expect(sample(text, 'planner_http_requests_total{route="/api/public/v1/orders/:id/",method="GET",status="429"}')).toBe(1);
      expect(sample(text, 'planner_http_requests_total{route="/api/public/v1/orders/:id/",method="GET",status="200"}')).toBe(1);
      expect(sample(text, 'planner_rate_limited_total{limit="requests"}')).toBe(1);
      expect(sample(text, 'planner_http_request_duration_seconds_count{route="/api/public/v1/orders/",method="POST"}')).toBe(1);
      expect(sample(text, 'planner_geocoding_backlog')).toBe(await f.port.geocodeQueue.count());
      expect(sample(text, 'planner_webhook_backlog')).toBe(1);
      expect(sample(text, 'planner_planning_queue_depth')).toBe(0);
      expect(text).toMatch(/^planner_nodejs_eventloop_lag_seconds /m);
      expect(text).toMatch(/^planner_process_cpu_seconds_total /m);
      for (const name of ['planner_planning_jobs_total', 'planner_planning_job_seconds', 'planner_lease_takeovers_total', 'planner_webhook_deliveries_total']) {
        expect(text, name).toContain(`# TYPE ${name} `);
      }
      // every metric of ours is planner_
      for (const line of text.split('\n').filter((l) => l.startsWith('# TYPE '))) expect(line).toMatch(/^# TYPE planner_/);
    });
  });
}
