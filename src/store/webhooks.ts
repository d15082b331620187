import { randomBytes } from 'node:crypto';
import { prepare, type Db } from './db.js';
import type { WebhookEvent, WebhookSubscription } from './types.js';

interface Row extends Omit<WebhookSubscription, 'events' | 'active'> {
  events: string;
  active: number;
}

function toSubscription(row: Row): WebhookSubscription {
  return { ...row, events: row.events.split(',') as WebhookEvent[], active: row.active === 1 };
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

  /** Active subscriptions of the company that listen to the event. */
  forEvent(companyId: number, event: WebhookEvent): WebhookSubscription[] {
    return (
      prepare(this.db, 'SELECT * FROM webhook_subscriptions WHERE company_id = ? AND active = 1 ORDER BY id')
        .all(companyId) as Row[]
    )
      .map(toSubscription)
      .filter((s) => s.events.includes(event));
  }
}
