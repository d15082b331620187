/**
 * Outbound rules (docs/contract/operations.md, "Quotas and outbound rules"; issue 38): OSRM and Nominatim are
 * called with `redirect: 'error'` and their answers are read with a size cap. Against real local
 * servers that redirect, or answer far more than any honest answer (streamed, without and with a
 * Content-Length).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, NominatimGeocoder } from '../../src/geocode/providers.js';
import { maxAnswerBytes, osrmMatrix } from '../../src/matrix/osrm.js';

interface Hostile {
  url: string;
  hits: string[];
  /** Requests that followed a redirect to the trap. */
  trapped: number;
  close(): Promise<void>;
}

/** `/redirect/...` answers 302 to `/trap`; `/huge/...` streams 64 MiB of a JSON array; `/declared/...` claims 64 MiB. */
async function startHostile(): Promise<Hostile> {
  const state = { hits: [] as string[], trapped: 0 };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    state.hits.push(path);
    if (path.startsWith('/trap')) {
      state.trapped++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    } else if (path.startsWith('/redirect')) {
      res.writeHead(302, { location: '/trap' });
      res.end();
    } else if (path.startsWith('/declared')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) });
      res.write('[');
      // never sends the rest: the client must refuse on the header alone
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from('1,'.repeat(32 * 1024));
      let sent = 0;
      res.write('[');
      const more = () => {
        while (sent < 1024) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('1]');
      };
      res.on('close', () => (sent = Infinity));
      more();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return state.hits;
    },
    get trapped() {
      return state.trapped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const points: Array<[number, number]> = [
  [52.52, 13.405],
  [52.5, 13.3],
];

let hostile: Hostile;
beforeAll(async () => {
  hostile = await startHostile();
});
afterAll(() => hostile.close());

describe('OSRM', () => {
  it('a redirect is an error, not followed and not retried', async () => {
    const before = hostile.hits.length;
    const err = await osrmMatrix(points, { url: `${hostile.url}/redirect`, retries: 3, retryDelayMs: 1 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: expect.stringMatching(/answered with a redirect, which is not followed/) });
    expect(hostile.trapped).toBe(0);
    expect(hostile.hits.length - before).toBe(1);
  });

  it('an answer larger than a table of that size can be is refused as it streams in', async () => {
    for (const path of ['huge', 'declared']) {
      const err = await osrmMatrix(points, { url: `${hostile.url}/${path}`, retries: 0 }).catch((e: unknown) => e);
      expect(err, path).toMatchObject({ message: expect.stringContaining(`answered more than ${maxAnswerBytes(2, 2)} bytes for a 2 x 2 table`) });
    }
  });
});

describe('Nominatim', () => {
  it('a redirect is an error, not followed and not retried', async () => {
    const before = hostile.hits.length;
    const g = new NominatimGeocoder({ url: `${hostile.url}/redirect`, minIntervalMs: 0, attempts: 3 });
    const err = await g.lookup('Alexanderplatz 1').catch((e: unknown) => e);
    expect(err).toMatchObject({ transient: false, message: 'nominatim: answered with a redirect, which is not followed' });
    expect(hostile.trapped).toBe(0);
    expect(hostile.hits.length - before).toBe(1);
  });

  it('an answer over 1 MiB is refused as it streams in, not retried', async () => {
    for (const path of ['huge', 'declared']) {
      const g = new NominatimGeocoder({ url: `${hostile.url}/${path}`, minIntervalMs: 0, attempts: 3 });
      const err = await g.lookup('Alexanderplatz 1').catch((e: unknown) => e);
      expect(err, path).toMatchObject({ transient: false, message: `nominatim: the answer is larger than ${MAX_ANSWER_BYTES} bytes` });
    }
  });
});
