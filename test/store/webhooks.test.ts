import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/sqlite/store.js';
import { PAUSE_AFTER_FAILING_MS } from '../../src/store/types.js';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dp-hooks-'));
  store = Store.open(join(dir, 'planner.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('webhook subscriptions: failing streaks and pausing', () => {
  it('a subscription that fails for 24 h is paused; a success before that clears the streak', () => {
    const now = '2026-11-25T00:00:00.000Z';
    const company = store.companies.create({ name: 'A', timezone: 'UTC' }, now);
    const sub = store.webhooks.create({ company_id: company.id, url: 'http://127.0.0.1:9/', events: ['planning_job.finished'] }, now);
    const t0 = Date.parse(now);
    expect(store.webhooks.recordOutcome(sub.id, false, t0)).toBe(false);
    expect(store.webhooks.recordOutcome(sub.id, false, t0 + PAUSE_AFTER_FAILING_MS - 1)).toBe(false);
    expect(store.webhooks.recordOutcome(sub.id, true, t0 + PAUSE_AFTER_FAILING_MS - 1)).toBe(false);
    // the streak starts again: 24 h from the next failure
    expect(store.webhooks.recordOutcome(sub.id, false, t0 + PAUSE_AFTER_FAILING_MS)).toBe(false);
    expect(store.webhooks.recordOutcome(sub.id, false, t0 + 2 * PAUSE_AFTER_FAILING_MS - 1)).toBe(false);
    expect(store.webhooks.inactiveIds()).toEqual(new Set());
    expect(store.webhooks.recordOutcome(sub.id, false, t0 + 2 * PAUSE_AFTER_FAILING_MS)).toBe(true);
    expect(store.webhooks.inactiveIds()).toEqual(new Set([sub.id]));
    expect(store.webhooks.get(sub.id)!.active).toBe(false);
    // paused, not disabled: new events still queue for it, to go out once it is resumed
    expect(store.webhooks.forEvent(company.id, 'planning_job.finished').map((s) => s.id)).toEqual([sub.id]);
    // admin webhook enable resumes it with a clean streak; a disabled one takes no new deliveries
    expect(store.webhooks.setActive(sub.id, true)!.active).toBe(true);
    expect(store.webhooks.inactiveIds()).toEqual(new Set());
    expect(store.webhooks.recordOutcome(sub.id, false, t0 + 3 * PAUSE_AFTER_FAILING_MS)).toBe(false);
    store.webhooks.setActive(sub.id, false);
    expect(store.webhooks.forEvent(company.id, 'planning_job.finished')).toEqual([]);
  });
});
