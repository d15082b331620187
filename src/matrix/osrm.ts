/**
 * Road matrices from an OSRM server (`/table/v1/driving`), for the `osrm` matrix provider of
 * operations.md. EDGE: it calls the network.
 *
 * A table of n locations is fetched in blocks of at most `blockSize` sources by `blockSize`
 * destinations, so that no request carries more than 2 x blockSize coordinates (OSRM's default
 * `--max-table-size` is 100). A `null` entry means OSRM found no road: it stays `null` in the
 * explicit matrix, and the engine reports orders no vehicle can reach as `unroutable`.
 */
import type { MatrixInput } from '../model/input.js';

export interface OsrmOptions {
  /** Base URL of the OSRM server, for example `http://127.0.0.1:5000`. */
  url: string;
  /** Profile in the path; OSRM's demo servers use `driving`. */
  profile?: string;
  /** Largest number of sources (and of destinations) in one request. */
  blockSize?: number;
  /** Time-out of one request in milliseconds. */
  timeoutMs?: number;
  /** How many times a request that timed out or answered 5xx is tried again. */
  retries?: number;
  /** Delay before the first retry in milliseconds; doubles each time. */
  retryDelayMs?: number;
}

/** OSRM could not be asked or answered something unusable; the message says which. */
export class MatrixProviderError extends Error {
  override name = 'MatrixProviderError';
}

type Explicit = Extract<MatrixInput, { kind: 'explicit' }>;

interface TableAnswer {
  code?: string;
  message?: string;
  durations?: Array<Array<number | null>>;
  distances?: Array<Array<number | null>>;
}

const defaults = { profile: 'driving', blockSize: 100, timeoutMs: 30_000, retries: 3, retryDelayMs: 500 };

/** Distances in metres and durations in seconds between all `[lat, lon]` points, by road. */
export async function osrmMatrix(points: ReadonlyArray<readonly [number, number]>, options: OsrmOptions): Promise<Explicit> {
  const o = { ...defaults, ...options };
  if (!Number.isInteger(o.blockSize) || o.blockSize < 1) throw new MatrixProviderError('blockSize must be a positive integer');
  const n = points.length;
  const distance: Array<Array<number | null>> = Array.from({ length: n }, () => new Array<number | null>(n).fill(null));
  const duration: Array<Array<number | null>> = Array.from({ length: n }, () => new Array<number | null>(n).fill(null));
  for (let s0 = 0; s0 < n; s0 += o.blockSize) {
    const sources = range(s0, Math.min(n, s0 + o.blockSize));
    for (let d0 = 0; d0 < n; d0 += o.blockSize) {
      const destinations = range(d0, Math.min(n, d0 + o.blockSize));
      const answer = await fetchBlock(points, sources, destinations, o);
      for (let i = 0; i < sources.length; i++) {
        for (let j = 0; j < destinations.length; j++) {
          const row = sources[i];
          const col = destinations[j];
          duration[row][col] = row === col ? 0 : cell(answer.durations, i, j);
          distance[row][col] = row === col ? 0 : cell(answer.distances, i, j);
        }
      }
    }
  }
  // A pair is a road only when OSRM gave both figures.
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (distance[i][j] === null || duration[i][j] === null) distance[i][j] = duration[i][j] = null;
    }
  }
  return { kind: 'explicit', distance, duration };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}

function cell(table: Array<Array<number | null>> | undefined, i: number, j: number): number | null {
  const v = table?.[i]?.[j];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

async function fetchBlock(
  points: ReadonlyArray<readonly [number, number]>,
  sources: number[],
  destinations: number[],
  o: typeof defaults & OsrmOptions,
): Promise<TableAnswer> {
  // One request carries the union of both index sets; sources/destinations index into it.
  const ids = [...new Set([...sources, ...destinations])];
  const local = new Map(ids.map((id, k) => [id, k]));
  const coords = ids.map((id) => `${points[id][1]},${points[id][0]}`).join(';');
  const query =
    `sources=${sources.map((s) => local.get(s)).join(';')}` +
    `&destinations=${destinations.map((d) => local.get(d)).join(';')}` +
    `&annotations=duration,distance`;
  const url = `${withoutTrailingSlashes(o.url)}/table/v1/${o.profile}/${coords}?${query}`;

  let lastProblem = '';
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (attempt > 0) await sleep(o.retryDelayMs * 2 ** (attempt - 1));
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(o.timeoutMs) });
    } catch (err) {
      lastProblem = err instanceof Error && err.name === 'TimeoutError' ? `timed out after ${o.timeoutMs} ms` : String(err);
      continue;
    }
    if (response.status >= 500) {
      lastProblem = `answered HTTP ${response.status}`;
      await response.body?.cancel();
      continue;
    }
    let body: TableAnswer;
    try {
      body = (await response.json()) as TableAnswer;
    } catch {
      throw new MatrixProviderError(`OSRM at ${o.url} answered HTTP ${response.status} with a body that is not JSON`);
    }
    if (!response.ok || body.code !== 'Ok') {
      throw new MatrixProviderError(
        `OSRM at ${o.url} refused the table request: HTTP ${response.status} ${body.code ?? ''} ${body.message ?? ''}`.trim(),
      );
    }
    if (!Array.isArray(body.durations) || !Array.isArray(body.distances)) {
      throw new MatrixProviderError(`OSRM at ${o.url} answered without durations and distances (annotations not supported?)`);
    }
    return body;
  }
  throw new MatrixProviderError(`OSRM at ${o.url} could not be reached: ${lastProblem} (after ${o.retries + 1} tries)`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The URL without its trailing slashes (a loop, not a regex: linear on any input). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
