import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real webhook receiver on 127.0.0.1. Each request takes the next planned answer: an HTTP
 * status, or 'hang' (never answers). When the plan runs out it answers 200.
 */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number | 'hang';
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  plan: Array<number | 'hang'>;
  /** Called as each request arrives, before it is answered (its index from 0); a returned promise delays the answer. */
  onRequest?: (index: number) => void | Promise<unknown>;
  /** Resolves when at least `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(plan: Array<number | 'hang'> = []): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = receiver.plan.shift() ?? 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      // answered once onRequest's promise (if it returns one) settles
      void Promise.resolve(receiver.onRequest?.(received.length - 1)).finally(() => {
        if (status === 'hang') return;
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status < 300 ? 'ok' : 'nope');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    plan,
    async waitFor(n, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
