/**
 * The HTTP exchange deadline: it stops the wait itself, not only the request's signal (a promise
 * that never settles, as a fetch whose abort got lost, still gives way), follows an outer signal,
 * and once closed aborts nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/io/deadline.js';

describe('Deadline', () => {
  it('rejects a wait that never ends with a TimeoutError and aborts its signal', async () => {
    const limit = new Deadline(50);
    const err = await limit.race(new Promise(() => undefined)).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TimeoutError', message: 'no answer within 50 ms' });
    expect(limit.signal.aborted).toBe(true);
    limit.close();
  });

  it('gives up on a real server that never answers', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const limit = new Deadline(100);
    try {
      const err = await limit.race(fetch(`http://127.0.0.1:${port}/`, { signal: limit.signal })).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'TimeoutError' });
    } finally {
      limit.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('follows an outer signal: its reason is the error', async () => {
    const outer = new AbortController();
    const limit = new Deadline(60_000, outer.signal);
    const waiting = limit.race(new Promise(() => undefined)).catch((e: unknown) => e);
    outer.abort(new Error('shutting down'));
    expect(await waiting).toMatchObject({ message: 'shutting down' });
    expect(limit.signal.aborted).toBe(true);
    limit.close();
    // already aborted at the start: at once
    const late = new Deadline(60_000, outer.signal);
    expect(await late.race(new Promise(() => undefined)).catch((e: unknown) => e)).toMatchObject({ message: 'shutting down' });
    late.close();
  });

  it('once closed, aborts nothing and passes answers through', async () => {
    const outer = new AbortController();
    const limit = new Deadline(30, outer.signal);
    expect(await limit.race(Promise.resolve(7))).toBe(7);
    limit.close();
    outer.abort();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(limit.signal.aborted).toBe(false);
  });

  it('discards an unread body: settles whether the body cancels or hangs', async () => {
    // headers and a first chunk, then nothing more: the body never ends
    const server = createServer((_, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.write('busy');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const limit = new Deadline(2_000);
    try {
      const response = await limit.race(fetch(`http://127.0.0.1:${port}/`, { signal: limit.signal }));
      expect(response.status).toBe(503);
      await expect(limit.discard(response)).resolves.toBeUndefined();
      expect(response.bodyUsed || response.body?.locked).toBeTruthy();
      // a deadline already past: discarding still settles, without an error
      const past = new Deadline(1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await expect(past.discard(new Response(new ReadableStream({ pull: () => new Promise(() => undefined) })))).resolves.toBeUndefined();
      past.close();
    } finally {
      limit.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
