import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  at: number;
  path: string;
  query: URLSearchParams;
  userAgent: string | undefined;
}

/**
 * A real HTTP server on 127.0.0.1 playing Nominatim's /search. `respond` decides each answer;
 * returning 'hang' leaves the request unanswered (a time-out for the client).
 */
export async function startFakeNominatim(
  respond: (q: string, n: number) => { status: number; body?: unknown } | 'hang',
) {
  const seen: SeenRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push({ at: Date.now(), path: url.pathname, query: url.searchParams, userAgent: req.headers['user-agent'] });
    const answer = respond(url.searchParams.get('q') ?? '', seen.length);
    if (answer === 'hang') {
      hanging.push(res);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const place = (lat: string, lon: string) => [{ place_id: 1, lat, lon, display_name: 'somewhere', category: 'place' }];
