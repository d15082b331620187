/**
 * Metrics over HTTP: every answer counted by route template, and `GET /metrics` in the Prometheus
 * text format. The registry itself is src/service/metrics.ts.
 */
import type { FastifyInstance } from 'fastify';
import { METRICS_CONTENT_TYPE, type PlannerMetrics } from '../service/metrics.js';

export { METRICS_CONTENT_TYPE, PlannerMetrics, type BacklogSources } from '../service/metrics.js';

/** Counts every answer of `app` by route template (never the raw path: ids would explode the series). */
export function observeHttp(app: FastifyInstance, metrics: PlannerMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? (reply.statusCode === 404 ? 'unknown' : 'none');
    const method = request.method;
    const status = String(reply.statusCode);
    metrics.httpRequests.inc({ route, method, status });
    metrics.httpDuration.observe({ route, method }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) metrics.rateLimited.inc({ limit: refusedBy.get(request) ?? 'requests' });
  });
}

const refusedBy = new WeakMap<object, string>();

/** Names the limit that refused `request` (the label of planner_rate_limited_total); default `requests`. */
export function markRefusal(request: object, limit: string): void {
  refusedBy.set(request, limit);
}

/** Serves `GET /metrics` on `app` (no key: the route has no scope). */
export function registerMetricsRoute(app: FastifyInstance, metrics: PlannerMetrics): void {
  app.get('/metrics', async (_request, reply) => reply.type(METRICS_CONTENT_TYPE).send(await metrics.text()));
}
