import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 playing OSRM's `/table/v1/{profile}/{coords}` service.
 * Road figures are made up but checkable: distance = 100000 x (|dlat| + |dlon|) metres, duration =
 * distance / 10 seconds. A point with latitude above 80 is an island: no road to or from it. A point
 * with latitude below -80 answers figures of 1e39 to and from it (finite in JSON, too large for a
 * 32-bit float).
 */
export interface FakeOsrm {
  url: string;
  /** The coordinates count of every request served, in order. */
  requests: number[];
  /** How many of the next requests answer 500 before serving normally. */
  failNext: number;
  /** Delay before answering, in milliseconds. */
  delayMs: number;
  close(): Promise<void>;
}

export const fakeRoad = {
  distance: (a: [number, number], b: [number, number]) => 100000 * (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1])),
  duration: (a: [number, number], b: [number, number]) => fakeRoad.distance(a, b) / 10,
  island: (p: [number, number]) => p[0] > 80,
  beyond: (p: [number, number]) => p[0] < -80,
};

export async function startFakeOsrm(): Promise<FakeOsrm> {
  const state = { requests: [] as number[], failNext: 0, delayMs: 0 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/table\/v1\/([a-z]+)\/(.+)$/.exec(url.pathname);
    const reply = (status: number, body: unknown) => {
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      }, state.delayMs);
    };
    if (!match) return reply(400, { code: 'InvalidUrl', message: 'not a table request' });
    const points = decodeURIComponent(match[2])
      .split(';')
      .map((p) => {
        const [lon, lat] = p.split(',').map(Number);
        return [lat, lon] as [number, number];
      });
    state.requests.push(points.length);
    if (state.failNext > 0) {
      state.failNext--;
      return reply(500, { code: 'InternalError' });
    }
    const pick = (name: string) => (url.searchParams.get(name) ?? points.map((_, i) => i).join(';')).split(';').map(Number);
    const sources = pick('sources');
    const destinations = pick('destinations');
    const table = (f: (a: [number, number], b: [number, number]) => number) =>
      sources.map((s) =>
        destinations.map((d) =>
          s !== d && (fakeRoad.island(points[s]) || fakeRoad.island(points[d]))
            ? null
            : s !== d && (fakeRoad.beyond(points[s]) || fakeRoad.beyond(points[d]))
              ? 1e39
              : f(points[s], points[d]),
        ),
      );
    reply(200, { code: 'Ok', durations: table(fakeRoad.duration), distances: table(fakeRoad.distance) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get failNext() {
      return state.failNext;
    },
    set failNext(v: number) {
      state.failNext = v;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(v: number) {
      state.delayMs = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
