/**
 * `delivery-planner serve`: the process around the HTTP API. Opens (creating and migrating) the
 * database, starts the planning runtime and the geocoding worker on the persisted queue (pending
 * work from a previous run resumes), builds the app and listens (src/http/listen.ts), prints
 * `listening on http://HOST:PORT` when ready, logs JSON lines to stderr, and on SIGTERM/SIGINT
 * stops accepting, finishes in-flight requests and the geocoding lookup in flight, closes the
 * database and exits 0. Its options: src/cli/options.ts.
 */
import { GeocodeWorker } from '../geocode/worker.js';
import { createGeocoder } from '../geocode/providers.js';
import { buildApp } from '../http/app.js';
import { listen, type Listening } from '../http/listen.js';
import { RedisTokenBuckets } from '../http/rate-limit-redis.js';
import { ensureDemo } from '../service/demo.js';
import { ServiceEvents } from '../service/events.js';
import { createPlanningRuntime } from '../service/planning.js';
import { openStore } from '../store/open.js';
import { DEFAULT_MAX_PENDING_DELIVERIES } from '../store/types.js';
import { pendingDeliveriesQuota } from '../service/quota.js';
import { redactUrl } from '../io/redact.js';
import { runUntilSignal } from './lifecycle.js';
import { setSolverNice } from '../pool/worker-nice.js';
import { parseServeArgs, SERVE_USAGE } from './options.js';
import { beginDraining, readiness } from '../http/health.js';
import { PlannerMetrics } from '../http/metrics.js';
import { buildOpsApp } from '../http/ops-app.js';
import { processReadiness } from '../service/ops.js';

export async function main(argv: string[]): Promise<number> {
  const config = parseServeArgs(argv);
  if (config === 'help') {
    process.stdout.write(SERVE_USAGE + '\n');
    return 0;
  }
  const geocoder = createGeocoder(config.geocoder, { addressBook: config.addressBook, url: config.geocoderUrl });
  const metrics = new PlannerMetrics();
  const outboxQuota = pendingDeliveriesQuota(config.flow?.maxPendingDeliveries ?? DEFAULT_MAX_PENDING_DELIVERIES, { metrics, warn: (o, m) => app.log.warn(o, m) });
  const store = await openStore(config.db, { outboxQuota });
  let worker: GeocodeWorker | undefined;
  const events = new ServiceEvents();
  // the solver threads (started by the pool below) yield a core to this event loop (--solver-nice)
  setSolverNice(config.solverNice);
  const planning = createPlanningRuntime({
    metrics,
    store,
    events,
    workers: config.workers,
    matrix: config.matrix,
    osrmUrl: config.osrmUrl,
    speedKmh: config.speedKmh,
    detourFactor: config.detourFactor,
    jobTimeLimitSec: config.flow?.jobTimeLimitSec,
    shiftReserveMin: config.flow?.shiftReserveMin,
    warmUpSec: config.flow?.solverWarmUpSec,
    webhookTimeoutMs: config.flow?.webhookTimeoutMs,
    webhookRetryDelaysMs: config.flow?.webhookRetryDelaysMs,
    maxJobsPerCompany: config.flow?.maxJobsPerCompany,
    positionRetentionDays: config.flow?.positionRetentionDays,
    leaseMs: config.flow?.leaseMs,
    runJobs: config.jobs,
    log: { info: (o, m) => app.log.info(o, m), warn: (o, m) => app.log.warn(o, m), error: (o, m) => app.log.error(o, m) },
  });
  // --redis: the request limits counted in Redis (shared by all API processes); connected before
  // listening so the first requests count there, and fail-open while it is away (rate-limit-redis.ts)
  const buckets =
    config.redis && config.rateLimit > 0
      ? new RedisTokenBuckets({
          target: config.redis,
          prefix: config.redisPrefix,
          log: { info: (o, m) => app.log.info(o, m), warn: (o, m) => app.log.warn(o, m) },
        })
      : undefined;
  // ready while the store answers and, where this process runs jobs, its solver threads are up
  const ready = readiness(processReadiness(store, config.jobs ? planning.pool : undefined));
  const app = buildApp({
    store,
    events,
    jobs: planning.jobs,
    geocoding: geocoder !== null,
    onGeocodeQueued: () => worker?.notify(),
    logger: { level: config.logLevel, stream: process.stderr },
    rateLimit: config.rateLimit,
    dispatcherPage: { tiles: config.tiles, tilesAttribution: config.tilesAttribution },
    rateLimitBuckets: buckets,
    publicUrl: config.publicUrl,
    metrics,
    metricsRoute: config.metricsPort === undefined,
    quotas: config.quotas,
    readiness: ready,
  });
  await buckets?.connect();
  if (geocoder && config.jobs) {
    worker = new GeocodeWorker({ store, geocoder, log: app.log, leaseMs: config.flow?.leaseMs });
  }
  let server: Listening | undefined;
  let ops: Listening | undefined;
  try {
    server = await listen(app, config.host, config.port);
    // --metrics-port: /healthz, /readyz and /metrics on a port of their own
    if (config.metricsPort !== undefined) ops = await listen(buildOpsApp({ metrics, readiness: ready }), config.host, config.metricsPort);
  } catch (err) {
    await ops?.close();
    await server?.close();
    await planning.stop();
    await buckets?.close();
    await store.close();
    throw err;
  }
  const base = server.base;
  worker?.start();
  await planning.start();
  app.log.info(
    { db: redactUrl(config.db), geocoder: config.geocoder, jobs: config.jobs ? 'on' : 'off', pending_geocoding: await store.geocodeQueue.count() },
    'service started',
  );

  if (config.demo) {
    const demo = await ensureDemo(store, new Date().toISOString());
    const auth = `-H 'Authorization: Api-Key ${demo.key}'`;
    const lines = [
      `demo company ${demo.company.id} "${demo.company.name}" (${demo.company.timezone})${demo.created ? ' created' : ''}: warehouse ${demo.warehouse.id}, vehicles ${demo.vehicles.map((v) => v.id).join(', ')}`,
      `demo API key (every scope, shown once): ${demo.key}`,
      `address book: ${config.geocoder === 'table' ? config.addressBook : `(geocoder ${config.geocoder})`}`,
      'try:',
      `  curl -s ${auth} -H 'Content-Type: application/json' -d '{"external_id":"DOC-1","address":"Alexanderplatz 1, 10178 Berlin","weight":"12.5"}' ${base}/api/public/v1/orders/`,
      `  curl -s ${auth} '${base}/api/public/v1/orders/?page_size=10'`,
      `dispatcher page: ${base}/app/ (enter the key there)`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }

  return runUntilSignal({
    async shutdown(signal) {
      app.log.info({ signal }, 'shutting down');
      // /readyz says 503 first (and stays up that long when something watches it), then the port closes
      await beginDraining(ready);
      await server.close();
      await planning.stop();
      await worker?.stop();
      await buckets?.close();
      await ops?.close();
    },
    onError: (err) => app.log.error({ err }, 'error during shutdown'),
    finally: () => store.close(),
    readyLines: [...(ops ? [`metrics on ${ops.base}`] : []), `listening on ${base}`],
  });
}
