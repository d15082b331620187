/**
 * A delivery is signed with the subscription's secret at the time it is sent (docs/contract/operations.md,
 * "Quotas and outbound rules"; issue 38): `webhook rotate-secret` holds from the next try, pending
 * deliveries included, on both stores. Real app, real receiver on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookDispatcher } from '../../src/service/webhooks.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { postgres } from '../helpers/postgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { makeAppOn } from './fixture.js';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && !postgres.available)(`webhook target at send time (${kind})`, () => {
    const cleanup: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const f of cleanup.reverse()) await f();
      cleanup.length = 0;
    });

    it('rotate-secret between two tries: the retry is signed with the new secret only', async () => {
      const first: WebhookReceiver = await startWebhookReceiver([500]);
      cleanup.push(() => first.close());
      const f = await makeAppOn(kind, { geocoding: false });
      cleanup.push(() => f.close());
      const hook = await f.port.webhooks.create({ company_id: f.company.id, url: first.url, events: ['order.status_changed'] }, new Date().toISOString());
      // the retry waits long enough for the rotation below to land between the two tries
      const dispatcher = createWebhookDispatcher(f.port, { retryDelaysMs: [1_500], pollMs: 50 });
      dispatcher.start();
      cleanup.push(() => dispatcher.stop());

      const order = (await f.inject('POST', '/orders/', { address: 'Alexanderplatz 1' })).json();
      expect((await f.inject('POST', `/orders/${order.id}/cancel/`)).statusCode).toBe(200);
      dispatcher.kick();
      const [failed] = await first.waitFor(1);
      const now = () => Math.floor(Date.now() / 1000);
      expect(verifySignature(hook.secret, String(failed!.headers['x-planner-signature']), failed!.body, now())).toBe(true);

      const rotated = (await f.port.webhooks.rotateSecret(hook.id))!;
      expect(rotated.secret).not.toBe(hook.secret);
      const [, retry] = await first.waitFor(2);
      expect(retry!.headers['x-planner-delivery-id']).toBe(failed!.headers['x-planner-delivery-id']);
      expect(verifySignature(rotated.secret, String(retry!.headers['x-planner-signature']), retry!.body, now())).toBe(true);
      expect(verifySignature(hook.secret, String(retry!.headers['x-planner-signature']), retry!.body, now())).toBe(false);
    });
  });
}
