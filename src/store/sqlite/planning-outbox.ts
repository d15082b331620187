/**
 * The SQLite planning store that also writes the job layer's webhooks inside the transactions that
 * make the changes: a plan's in_route changes and its `planning_job.finished` commit with the plan
 * (the commit's `publish` primitive, called by src/jobs/commit.ts),
 * a failed job's `planning_job.finished` with the failure. Nothing is lost between a commit and the
 * outbox, even to a kill -9. (The job service still emits the events on its bus afterwards, for
 * in-process listeners; nothing publishes them again.)
 */
import type { JobRecord, PlanningEvent } from '../../jobs/ports.js';
import { toJobView } from '../../jobs/view.js';
import { SqliteWebhookOutbox } from './outbox.js';
import { deliveriesFor } from '../../webhooks/publish.js';
import type { Db } from './db.js';
import { SqlitePlanningStore } from './planning.js';
import { WebhookRepository } from './webhooks.js';

export class OutboxPlanningStore extends SqlitePlanningStore {
  private readonly webhooks: WebhookRepository;
  private readonly outbox: SqliteWebhookOutbox;

  constructor(
    private readonly database: Db,
    /** Each event written (tests count them). */
    private readonly onPublished?: (companyId: number, event: PlanningEvent) => void,
    /** The store's outbox (its quota); by default one of its own on the connection. */
    outbox?: SqliteWebhookOutbox,
  ) {
    super(database);
    this.webhooks = new WebhookRepository(database);
    this.outbox = outbox ?? new SqliteWebhookOutbox(database);
  }

  protected override publish(companyId: number, event: PlanningEvent, data: unknown): void {
    const deliveries = deliveriesFor(this.webhooks.forEvent(companyId, event), event, data, Date.now());
    if (deliveries.length > 0) this.outbox.add(deliveries);
    this.onPublished?.(companyId, event);
  }

  override updateJob(jobId: number, change: { status: 'running' } | { status: 'failed'; error: string }, at: string, owner?: string): JobRecord {
    if (change.status !== 'failed') return super.updateJob(jobId, change, at, owner);
    return this.database.transaction(() => {
      const job = super.updateJob(jobId, change, at, owner);
      this.publish(job.companyId, 'planning_job.finished', toJobView(job));
      return job;
    }).immediate();
  }
}
