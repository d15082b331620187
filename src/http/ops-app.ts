/**
 * The operator's port (`serve --metrics-port N`, `worker --metrics-port N`): /healthz, /readyz and
 * /metrics, no key, nothing else. Built by a function like the API app; the caller listens.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { registerHealthRoutes, type ReadinessCheck } from './health.js';
import { registerMetricsRoute, type PlannerMetrics } from './metrics.js';

export function buildOpsApp(options: { metrics: PlannerMetrics; readiness: ReadinessCheck }): FastifyInstance {
  const app = Fastify({ logger: false });
  registerHealthRoutes(app, options.readiness);
  registerMetricsRoute(app, options.metrics);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));
  return app;
}
