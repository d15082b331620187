/**
 * The operator's view of a process (docs/contract/operations.md, "Health, readiness, metrics and request ids"):
 * what /readyz checks, and how the planning runtime feeds /metrics. `serve` and `worker` wire these.
 */
import type { PlannerMetrics } from './metrics.js';
import type { JobRecord, PlanningStore } from '../jobs/ports.js';
import type { EventBus } from '../jobs/events.js';
import type { SolverPool } from '../pool/pool.js';
import type { StorePort } from '../store/port.js';

/** Whether the process may take traffic, and if not, why (served by /readyz). */
export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Ready: the store answers (it was migrated when opened: `openStore` applies every migration or
 * fails), and, where this process runs jobs, its solver threads are up.
 */
export function processReadiness(store: StorePort, pool?: SolverPool): () => Promise<Readiness> {
  return async () => {
    try {
      await store.companies.get(0);
    } catch (err) {
      return { ready: false, reason: `the store does not answer: ${(err as Error).message.split('\n')[0]!.slice(0, 200)}` };
    }
    if (pool && pool.threadsReady === 0) return { ready: false, reason: 'the solver threads are not up yet' };
    return { ready: true };
  };
}

/** The backlog gauges read the store (counts on indexes, only when scraped). */
export function storeBacklogs(metrics: PlannerMetrics, store: StorePort): void {
  const pool = (store as unknown as { pool?: { totalCount: number; idleCount: number; waitingCount: number } }).pool;
  metrics.setSources({
    webhookBacklog: () => store.outbox.countPending(),
    geocodingBacklog: () => store.geocodeQueue.count(),
    planningQueueDepth: async () => (await store.planning.listUnfinishedJobs()).filter((j) => j.status === 'queued').length,
    storePool: pool ? () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) : undefined,
  });
}

/**
 * The planning store as the job service sees it, counting claims: time in queue at a first claim,
 * a lease takeover at a later one; and the finished jobs of this process by outcome and time.
 */
export function observePlanning(planning: PlanningStore, bus: EventBus, metrics: PlannerMetrics): PlanningStore {
  const claimedAt = new Map<number, number>();
  bus.on('planning_job.finished', (e) => {
    metrics.planningJobs.inc({ outcome: e.data.status });
    const at = claimedAt.get(e.data.job_id);
    if (at !== undefined) {
      metrics.planningJobSeconds.observe((Date.now() - at) / 1000);
      claimedAt.delete(e.data.job_id);
    }
  });
  const claimJob: PlanningStore['claimJob'] = (owner, at, leaseUntil) => {
    const seen = (job: JobRecord | undefined) => {
      if (!job) return job;
      if ((job.attempts ?? 1) > 1) metrics.leaseTakeovers.inc();
      else metrics.planningQueueSeconds.observe(Math.max(0, (Date.parse(at) - Date.parse(job.createdAt)) / 1000));
      if (claimedAt.size > 10_000) claimedAt.clear(); // jobs lost to takeovers never finish here
      claimedAt.set(job.id, Date.now());
      return job;
    };
    const claimed = planning.claimJob(owner, at, leaseUntil);
    return claimed instanceof Promise ? claimed.then(seen) : seen(claimed);
  };
  // every other method as it is, bound to the store (a class instance keeps its private state)
  return new Proxy(planning, {
    get(target, name) {
      if (name === 'claimJob') return claimJob;
      const value = Reflect.get(target, name) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
