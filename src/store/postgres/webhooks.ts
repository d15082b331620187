import { randomBytes } from 'node:crypto';
import type { WebhooksPort } from '../ports.js';
import { PAUSE_AFTER_FAILING_MS, type WebhookEvent, type WebhookSubscription } from '../types.js';
import type { Conn } from './db.js';
import { safeId } from './util.js';

interface Row extends Omit<WebhookSubscription, 'events'> {
  events: string;
  failing_since?: number | null;
  paused_at?: string | null;
}

function toSubscription(row: Row): WebhookSubscription {
  const { failing_since: _failing, paused_at: _paused, ...rest } = row;
  return { ...rest, events: row.events.split(',') as WebhookEvent[] };
}

/** Subscriptions of one company: set up by hand (admin CLI), a few at most. */
const MAX_SUBSCRIPTIONS = 10_000;

/** Webhook subscriptions as in src/store/webhooks.ts. */
export class PgWebhookRepository implements WebhooksPort {
  constructor(private readonly db: Conn) {}

  async create(input: { company_id: number; url: string; events: WebhookEvent[] }, now: string): Promise<WebhookSubscription> {
    const secret = randomBytes(32).toString('hex');
    const row = await this.db.one<Row>(
      'INSERT INTO webhook_subscriptions (company_id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [input.company_id, input.url, input.events.join(','), secret, now],
    );
    return toSubscription(row!);
  }

  async get(id: number): Promise<WebhookSubscription | undefined> {
    if (!safeId(id)) return undefined;
    const row = await this.db.one<Row>('SELECT * FROM webhook_subscriptions WHERE id = $1', [id]);
    return row && toSubscription(row);
  }

  async listForCompany(companyId: number): Promise<WebhookSubscription[]> {
    return (await this.db.rows<Row>('SELECT * FROM webhook_subscriptions WHERE company_id = $1 ORDER BY id LIMIT $2', [companyId, MAX_SUBSCRIPTIONS])).map(
      toSubscription,
    );
  }

  async setActive(id: number, active: boolean): Promise<WebhookSubscription | undefined> {
    if (!safeId(id)) return undefined;
    if (active) await this.db.run('UPDATE webhook_subscriptions SET active = TRUE, paused_at = NULL, failing_since = NULL WHERE id = $1', [id]);
    else await this.db.run('UPDATE webhook_subscriptions SET active = FALSE, paused_at = NULL WHERE id = $1', [id]);
    return this.get(id);
  }

  async rotateSecret(id: number): Promise<WebhookSubscription | undefined> {
    if (!safeId(id)) return undefined;
    await this.db.run('UPDATE webhook_subscriptions SET secret = $1 WHERE id = $2', [randomBytes(32).toString('hex'), id]);
    return this.get(id);
  }

  async inactiveIds(): Promise<Set<number>> {
    // every disabled or paused subscription of every company (the dispatcher's filter); a few per company
    const rows = await this.db.rows<{ id: number }>('SELECT id FROM webhook_subscriptions WHERE NOT active ORDER BY id LIMIT 100000');
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Records a try's outcome (a success clears the failing streak, a failure starts it, a streak of
   * `pauseAfterMs` pauses the subscription: true when this call paused it). The row is locked from
   * the read to the write, so outcomes written by several processes at once cannot lose one.
   */
  async recordOutcome(id: number, ok: boolean, at: number, pauseAfterMs = PAUSE_AFTER_FAILING_MS): Promise<boolean> {
    if (!safeId(id)) return false;
    return this.db.atomic(async (tx) => {
      const row = await tx.one<{ active: boolean; failing_since: number | null }>(
        'SELECT active, failing_since FROM webhook_subscriptions WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (!row) return false;
      if (ok) {
        if (row.failing_since !== null) await tx.run('UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = $1', [id]);
        return false;
      }
      if (row.failing_since === null) {
        await tx.run('UPDATE webhook_subscriptions SET failing_since = $1 WHERE id = $2', [at, id]);
        return false;
      }
      if (row.active && at - row.failing_since >= pauseAfterMs) {
        await tx.run('UPDATE webhook_subscriptions SET active = FALSE, paused_at = $1 WHERE id = $2', [new Date(at).toISOString(), id]);
        return true;
      }
      return false;
    });
  }

  async forEvent(companyId: number, event: WebhookEvent): Promise<WebhookSubscription[]> {
    const rows = await this.db.rows<Row>(
      'SELECT * FROM webhook_subscriptions WHERE company_id = $1 AND (active OR paused_at IS NOT NULL) ORDER BY id LIMIT $2',
      [companyId, MAX_SUBSCRIPTIONS],
    );
    return rows.map(toSubscription).filter((s) => s.events.includes(event));
  }
}
