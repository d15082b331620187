/**
 * Road matrices from an OSRM server (`/table/v1/driving`), for the `osrm` matrix provider of
 * docs/contract/operations.md. EDGE: it calls the network.
 *
 * A table of n locations is fetched in blocks of at most `blockSize` sources by `blockSize`
 * destinations, so that no request carries more than 2 x blockSize coordinates (OSRM's default
 * `--max-table-size` is 100). A `null` entry means OSRM found no road: it stays `null` in the
 * explicit matrix, and the engine reports orders no vehicle can reach as `unroutable`. Every figure
 * is rounded to a 32-bit float (`cell`).
 */
import type { MatrixInput } from '../model/input.js';
import { BodyTooLargeError, isRedirectRefusal, readCappedJson } from '../io/capped-body.js';
import { Deadline } from '../io/deadline.js';

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

/**
 * OSRM could not be asked or answered something unusable. `message` says which, with the
 * server's address (for the log); `reason` says it without naming any host (for the tenant).
 */
export class MatrixProviderError extends Error {
  override name = 'MatrixProviderError';
  constructor(
    message: string,
    readonly reason: string = 'the road-matrix service failed',
  ) {
    super(message);
  }
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
export async function osrmMatrix(points: ReadonlyArray<readonly [number, number]>, options: OsrmOptions, signal?: AbortSignal): Promise<Explicit> {
  const o = { ...defaults, ...options };
  if (!Number.isInteger(o.blockSize) || o.blockSize < 1) throw new MatrixProviderError('blockSize must be a positive integer');
  const n = points.length;
  const distance: Array<Array<number | null>> = Array.from({ length: n }, () => new Array<number | null>(n).fill(null));
  const duration: Array<Array<number | null>> = Array.from({ length: n }, () => new Array<number | null>(n).fill(null));
  for (let s0 = 0; s0 < n; s0 += o.blockSize) {
    const sources = range(s0, Math.min(n, s0 + o.blockSize));
    for (let d0 = 0; d0 < n; d0 += o.blockSize) {
      const destinations = range(d0, Math.min(n, d0 + o.blockSize));
      const answer = await fetchBlock(points, sources, destinations, o, signal);
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

/**
 * One figure of an answer, rounded to a 32-bit float (OSRM's tenths of a second or metre move by
 * at most 0.03 ms in 10 minutes, 2 mm in 30 km), so that the engine stores the matrix compactly
 * (model/matrix.ts `compactMatrix`: half the memory, the same search); null when it is missing or
 * not finite, and when it is too large for a 32-bit float (over 3.4e38: no road either).
 */
function cell(table: Array<Array<number | null>> | undefined, i: number, j: number): number | null {
  const v = table?.[i]?.[j];
  if (typeof v !== 'number') return null;
  const rounded = Math.fround(v);
  return Number.isFinite(rounded) ? rounded : null;
}

async function fetchBlock(
  points: ReadonlyArray<readonly [number, number]>,
  sources: number[],
  destinations: number[],
  o: typeof defaults & OsrmOptions,
  deadline: AbortSignal | undefined,
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

  const late = () =>
    new MatrixProviderError(`OSRM at ${o.url}: the job's deadline for the road matrix passed`, 'the road-matrix service did not answer within the time the job allows');
  let lastProblem = '';
  let lastReason = 'the road-matrix service could not be reached';
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (attempt > 0 && !(await sleep(o.retryDelayMs * 2 ** (attempt - 1), deadline))) throw late();
    if (deadline?.aborted) throw late();
    // the try's own timer (see io/deadline.ts): it bounds the answer and its body
    const limit = new Deadline(o.timeoutMs, deadline);
    let response: Response;
    let body: TableAnswer;
    try {
      try {
        // a redirect is not followed: the operator named the service's address
        response = await limit.race(fetch(url, { signal: limit.signal, redirect: 'error' }));
      } catch (err) {
        if (deadline?.aborted) throw late();
        if (isRedirectRefusal(err)) {
          throw new MatrixProviderError(`OSRM at ${o.url} answered with a redirect, which is not followed`, 'the road-matrix service answered with a redirect');
        }
        const timedOut = err instanceof Error && err.name === 'TimeoutError';
        lastProblem = timedOut ? `timed out after ${o.timeoutMs} ms` : String(err);
        lastReason = timedOut ? 'the road-matrix service did not answer in time' : 'the road-matrix service could not be reached';
        continue;
      }
      if (response.status >= 500) {
        lastProblem = `answered HTTP ${response.status}`;
        lastReason = `the road-matrix service answered HTTP ${response.status}`;
        await limit.discard(response);
        continue;
      }
      try {
        body = (await readCappedJson(response, maxAnswerBytes(sources.length, destinations.length), limit)) as TableAnswer;
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          throw new MatrixProviderError(`OSRM at ${o.url} answered more than ${err.maxBytes} bytes for a ${sources.length} x ${destinations.length} table`, 'the road-matrix service answered far more than a table');
        }
        throw new MatrixProviderError(`OSRM at ${o.url} answered HTTP ${response.status} with a body that is not JSON`, 'the road-matrix service answered something that is not a table');
      }
    } finally {
      limit.close();
    }
    if (!response.ok || body.code !== 'Ok') {
      const code = typeof body.code === 'string' ? body.code.slice(0, 40) : '';
      throw new MatrixProviderError(
        `OSRM at ${o.url} refused the table request: HTTP ${response.status} ${body.code ?? ''} ${body.message ?? ''}`.trim(),
        `the road-matrix service refused the request (HTTP ${response.status}${code ? ` ${code}` : ''})`,
      );
    }
    if (!Array.isArray(body.durations) || !Array.isArray(body.distances)) {
      throw new MatrixProviderError(`OSRM at ${o.url} answered without durations and distances (annotations not supported?)`, 'the road-matrix service answered without durations and distances');
    }
    return body;
  }
  throw new MatrixProviderError(`OSRM at ${o.url} could not be reached: ${lastProblem} (after ${o.retries + 1} tries)`, `${lastReason} (${o.retries + 1} tries)`);
}

/**
 * The most bytes an honest answer to an s x d table holds: two matrices of numbers of up to 24
 * characters, a waypoint of up to 1 KiB (its street name) per location, 64 KiB for the rest.
 */
export function maxAnswerBytes(sources: number, destinations: number): number {
  return 2 * sources * destinations * 24 + (sources + destinations) * 1024 + 64 * 1024;
}

/** Waits `ms`; false when `signal` aborted first. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The URL without its trailing slashes (a loop, not a regex: linear on any input). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
