import { randomBytes } from 'node:crypto';
import { prepare, type Db } from './db.js';
import { PAUSE_AFTER_FAILING_MS, type WebhookEvent, type WebhookSubscription } from '../types.js';

interface Row extends Omit<WebhookSubscription, 'events' | 'active'> {
  events: string;
  active: number;
  failing_since?: number | null;
  paused_at?: string | null;
}

function toSubscription(row: Row): WebhookSubscription {
  const { failing_since: _failing, paused_at: _paused, ...rest } = row;
  return { ...rest, events: row.events.split(',') as WebhookEvent[], active: row.active === 1 };
}


/** Webhook subscriptions; the secret (32 random bytes, hex) keys the HMAC of each delivery. */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  create(input: { company_id: number; url: string; events: WebhookEvent[] }, now: string): WebhookSubscription {
    const secret = randomBytes(32).toString('hex');
    const info = prepare(this.db, 'INSERT INTO webhook_subscriptions (company_id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(input.company_id, input.url, input.events.join(','), secret, now);
    return this.get(Number(info.lastInsertRowid))!;
  }

  get(id: number): WebhookSubscription | undefined {
    const row = prepare(this.db, 'SELECT * FROM webhook_subscriptions WHERE id = ?').get(id) as Row | undefined;
    return row && toSubscription(row);
  }

  listForCompany(companyId: number): WebhookSubscription[] {
    return (prepare(this.db, 'SELECT * FROM webhook_subscriptions WHERE company_id = ? ORDER BY id').all(companyId) as Row[]).map(toSubscription);
  }

  /** Enables (clearing a pause and its failing streak) or disables a subscription. */
  setActive(id: number, active: boolean): WebhookSubscription | undefined {
    if (active) prepare(this.db, 'UPDATE webhook_subscriptions SET active = 1, paused_at = NULL, failing_since = NULL WHERE id = ?').run(id);
    else prepare(this.db, 'UPDATE webhook_subscriptions SET active = 0, paused_at = NULL WHERE id = ?').run(id);
    return this.get(id);
  }

  /** A new secret; deliveries already queued keep the secret they were queued with. */
  rotateSecret(id: number): WebhookSubscription | undefined {
    prepare(this.db, 'UPDATE webhook_subscriptions SET secret = ? WHERE id = ?').run(randomBytes(32).toString('hex'), id);
    return this.get(id);
  }

  /** Ids of the subscriptions that get no tries now (disabled or paused): their deliveries wait. */
  inactiveIds(): Set<number> {
    return new Set((prepare(this.db, 'SELECT id FROM webhook_subscriptions WHERE active = 0').all() as Array<{ id: number }>).map((r) => r.id));
  }

  /**
   * Records a try's outcome: a success clears the failing streak; a failure starts it, and a
   * streak of `pauseAfterMs` pauses the subscription (true when this call paused it).
   */
  recordOutcome(id: number, ok: boolean, at: number, pauseAfterMs = PAUSE_AFTER_FAILING_MS): boolean {
    const row = prepare(this.db, 'SELECT active, failing_since FROM webhook_subscriptions WHERE id = ?').get(id) as
      | { active: number; failing_since: number | null }
      | undefined;
    if (!row) return false;
    if (ok) {
      if (row.failing_since !== null) prepare(this.db, 'UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ?').run(id);
      return false;
    }
    if (row.failing_since === null) {
      prepare(this.db, 'UPDATE webhook_subscriptions SET failing_since = ? WHERE id = ?').run(at, id);
      return false;
    }
    if (row.active === 1 && at - row.failing_since >= pauseAfterMs) {
      prepare(this.db, 'UPDATE webhook_subscriptions SET active = 0, paused_at = ? WHERE id = ?').run(new Date(at).toISOString(), id);
      return true;
    }
    return false;
  }

  /**
   * The subscriptions of the company that listen to the event and take new deliveries: active
   * ones, and paused ones (their deliveries wait for `admin webhook enable`, none is lost); a
   * disabled one takes none.
   */
  forEvent(companyId: number, event: WebhookEvent): WebhookSubscription[] {
    return (
      prepare(this.db, 'SELECT * FROM webhook_subscriptions WHERE company_id = ? AND (active = 1 OR paused_at IS NOT NULL) ORDER BY id')
        .all(companyId) as Row[]
    )
      .map(toSubscription)
      .filter((s) => s.events.includes(event));
  }
}
