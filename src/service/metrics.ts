/**
 * The process's metrics (docs/contract/operations.md, "Health, readiness, metrics and request ids"),
 * with prom-client: one registry per process (not the library's global one, so two apps in one test
 * process do not share counters). Counters and histograms are fed where things happen (HTTP answers
 * in src/http/metrics.ts; planning jobs, leases and webhook tries through `observe*`); backlogs are
 * gauges read from the store when scraped. Every name starts with `planner_`, the library's process
 * and event-loop metrics included. It lives below http/ because the use cases feed it too.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** What the backlog gauges read when scraped; each may be missing (an API process without jobs). */
export interface BacklogSources {
  planningQueueDepth?: () => number | Promise<number>;
  webhookBacklog?: () => number | Promise<number>;
  geocodingBacklog?: () => number | Promise<number>;
  /** The store's connection pool (PostgreSQL): connections in all, idle, and clients waiting. */
  storePool?: () => { total: number; idle: number; waiting: number };
}

export class PlannerMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'planner_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'planner_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route template and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'planner_rate_limited_total',
    help: 'Requests refused by a request limit or a quota (429), by what refused them.',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  readonly planningJobs = new Counter({
    name: 'planner_planning_jobs_total',
    help: 'Planning jobs finished in this process, by outcome (done, failed).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly planningJobSeconds = new Histogram({
    name: 'planner_planning_job_seconds',
    help: 'Planning jobs finished in this process: time from claim to finish (solve and commit).',
    buckets: [0.5, 1, 2, 3, 5, 7.5, 10, 15, 30, 60, 120],
    registers: [this.registry],
  });
  readonly planningQueueSeconds = new Histogram({
    name: 'planner_planning_queue_seconds',
    help: 'Planning jobs claimed in this process: time from submit to first claim.',
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });
  readonly leaseTakeovers = new Counter({
    name: 'planner_lease_takeovers_total',
    help: 'Planning jobs this process claimed after another process had held them (its lease ran out or it handed them back).',
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'planner_webhook_deliveries_total',
    help: 'Webhook tries made by this process, by outcome (delivered, retrying, given_up).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookDropped = new Counter({
    name: 'planner_webhook_deliveries_dropped_total',
    help: 'Webhook deliveries not queued because their subscription held --max-pending-deliveries pending ones already, by event.',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });
  private sources: BacklogSources = {};

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'planner_' });
    const gauge = (name: string, help: string, read: (s: BacklogSources) => (() => number | Promise<number>) | undefined) => {
      const sources = () => this.sources;
      new Gauge({
        name,
        help,
        registers: [this.registry],
        async collect() {
          const f = read(sources());
          // a store that cannot answer leaves the gauge at its last value; the scrape still works
          if (f) this.set(await Promise.resolve().then(f).catch(() => NaN));
        },
      });
    };
    gauge('planner_planning_queue_depth', 'Planning jobs queued, of every company.', (s) => s.planningQueueDepth);
    gauge('planner_webhook_backlog', 'Webhook deliveries pending, paused subscriptions included.', (s) => s.webhookBacklog);
    gauge('planner_geocoding_backlog', 'Addresses waiting to be geocoded.', (s) => s.geocodingBacklog);
    const pool = (pick: 'total' | 'idle' | 'waiting', help: string) => {
      const sources = () => this.sources;
      new Gauge({
        name: `planner_store_pool_${pick}`,
        help,
        registers: [this.registry],
        collect() {
          const read = sources().storePool;
          if (read) this.set(read()[pick]);
        },
      });
    };
    pool('total', 'Connections the store pool holds (PostgreSQL).');
    pool('idle', 'Idle connections of the store pool (PostgreSQL).');
    pool('waiting', 'Queries waiting for a connection of the store pool (PostgreSQL).');
  }

  /** Where the backlog gauges read from (merged over what was given before). */
  setSources(sources: BacklogSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

