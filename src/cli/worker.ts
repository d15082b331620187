/**
 * `delivery-planner worker`: runs planning jobs, webhook deliveries and geocoding from the
 * database, and answers no HTTP (docs/contract/operations.md, "Scaling out"). Any number of workers and `serve`
 * processes share one database: each piece of work is claimed with a lease (src/jobs/service.ts,
 * the outbox.ts and geocode-queue.ts of src/store/sqlite and src/store/postgres), so it runs in one process at a time and is
 * taken over when its process dies.
 *
 * Prints `worker ready` on stdout once it takes work. SIGTERM/SIGINT: running jobs get a short
 * drain, then are handed back (their lease ended at once, for another process to take over); deliveries and lookups in
 * flight are stopped and handed back; exit 0. Its options: src/cli/options.ts.
 */
import pino from 'pino';
import { GeocodeWorker } from '../geocode/worker.js';
import { createGeocoder } from '../geocode/providers.js';
import { ServiceEvents } from '../service/events.js';
import { createPlanningRuntime } from '../service/planning.js';
import { openStore } from '../store/open.js';
import { redactUrl } from '../io/redact.js';
import { runUntilSignal } from './lifecycle.js';
import { setSolverNice } from '../pool/worker-nice.js';
import { parseWorkerArgs, WORKER_USAGE } from './options.js';
import { beginDraining, readiness } from '../http/health.js';
import { listen, type Listening } from '../http/listen.js';
import { PlannerMetrics } from '../http/metrics.js';
import { buildOpsApp } from '../http/ops-app.js';
import { processReadiness } from '../service/ops.js';
import { pendingDeliveriesQuota } from '../service/quota.js';
import { DEFAULT_MAX_PENDING_DELIVERIES } from '../store/types.js';

export async function main(argv: string[]): Promise<number> {
  const config = parseWorkerArgs(argv);
  if (config === 'help') {
    process.stdout.write(WORKER_USAGE + '\n');
    return 0;
  }
  const log = pino({ level: config.logLevel, base: { role: 'worker', pid: process.pid } }, process.stderr);
  const geocoder = createGeocoder(config.geocoder, { addressBook: config.addressBook, url: config.geocoderUrl });
  const metrics = new PlannerMetrics();
  const outboxQuota = pendingDeliveriesQuota(config.flow.maxPendingDeliveries ?? DEFAULT_MAX_PENDING_DELIVERIES, { metrics, warn: (o, m) => log.warn(o, m) });
  const store = await openStore(config.db, { outboxQuota });
  // the solver threads (started by the pool below) yield a core to this event loop (--solver-nice)
  setSolverNice(config.solverNice);
  const planning = createPlanningRuntime({
    metrics,
    store,
    events: new ServiceEvents(),
    workers: config.workers,
    matrix: config.matrix,
    osrmUrl: config.osrmUrl,
    speedKmh: config.speedKmh,
    detourFactor: config.detourFactor,
    jobTimeLimitSec: config.flow.jobTimeLimitSec,
    shiftReserveMin: config.flow.shiftReserveMin,
    warmUpSec: config.flow.solverWarmUpSec,
    webhookTimeoutMs: config.flow.webhookTimeoutMs,
    webhookRetryDelaysMs: config.flow.webhookRetryDelaysMs,
    maxJobsPerCompany: config.flow.maxJobsPerCompany,
    positionRetentionDays: config.flow.positionRetentionDays,
    leaseMs: config.flow.leaseMs,
    log: { info: (o, m) => log.info(o, m), warn: (o, m) => log.warn(o, m), error: (o, m) => log.error(o, m) },
  });
  const geocoding = geocoder ? new GeocodeWorker({ store, geocoder, log, leaseMs: config.flow.leaseMs }) : undefined;
  // the loops' timers do not hold the process open; this does, until the shutdown
  const alive = setInterval(() => undefined, 1 << 30);
  const ready = readiness(processReadiness(store, planning.pool));
  let ops: Listening | undefined;
  try {
    geocoding?.start();
    await planning.start();
    // --metrics-port: /healthz, /readyz and /metrics
    if (config.metricsPort !== undefined) ops = await listen(buildOpsApp({ metrics, readiness: ready }), config.metricsHost, config.metricsPort);
  } catch (err) {
    clearInterval(alive);
    await planning.stop().catch(() => undefined);
    await geocoding?.stop().catch(() => undefined);
    await store.close();
    throw err;
  }
  log.info({ db: redactUrl(config.db), owner: planning.jobs.owner, geocoder: config.geocoder }, 'worker started');

  return runUntilSignal({
    async shutdown(signal) {
      log.info({ signal }, 'shutting down');
      // /readyz says 503 first, then the work finishes or is handed back
      await beginDraining(ready);
      await planning.stop();
      await geocoding?.stop();
      await ops?.close();
    },
    onError: (err) => log.error({ err }, 'error during shutdown'),
    async finally() {
      clearInterval(alive);
      await store.close();
    },
    readyLines: [...(ops ? [`metrics on ${ops.base}`] : []), 'worker ready'],
  });
}
