/**
 * Geocoding providers (docs/contract/operations.md): `table` (address book), `nominatim` (HTTP, one request a
 * second, retried on 5xx, 429, time-outs and network errors) and `none` (no provider: nothing
 * is queued). A lookup resolves to coordinates, or null when the address is unknown; it throws
 * `GeocodeError` when the provider failed (transient: try again later; else give up).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseScaled } from '../service/decimal.js';
import { AddressBook, type Coordinates } from './address-book.js';
import { BodyTooLargeError, isRedirectRefusal, readCappedJson } from '../io/capped-body.js';
import { Deadline } from '../io/deadline.js';

/** An answer to `limit=1` is a few KiB; 1 MiB leaves room and bounds the parse. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export type { Coordinates };

export interface Geocoder {
  readonly name: string;
  /** `signal` aborts a lookup in flight (shutdown); the task then stays queued. */
  lookup(address: string, signal?: AbortSignal): Promise<Coordinates | null>;
}

export class GeocodeError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export class TableGeocoder implements Geocoder {
  readonly name = 'table';
  constructor(readonly book: AddressBook) {}

  async lookup(address: string): Promise<Coordinates | null> {
    return this.book.lookup(address) ?? null;
  }
}

export interface NominatimOptions {
  url: string;
  /** Minimum time between two requests as the server sees them (the usage policy's 1 request a
   *  second): counted from the start and from the answer of the previous request. */
  minIntervalMs?: number;
  timeoutMs?: number;
  /** Attempts per lookup before giving the task back to the queue. */
  attempts?: number;
  /** One deadline for a lookup, its attempts and waits included (default 30 s). */
  deadlineMs?: number;
  userAgent?: string;
}

export class NominatimGeocoder implements Geocoder {
  readonly name = 'nominatim';
  private readonly base: string;
  private readonly minIntervalMs: number;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly deadlineMs: number;
  private readonly userAgent: string;
  private nextSlot = 0;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(options: NominatimOptions) {
    this.base = withoutTrailingSlashes(options.url);
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attempts = options.attempts ?? 3;
    this.deadlineMs = options.deadlineMs ?? 30_000;
    this.userAgent = options.userAgent ?? 'delivery-planner/0.1 (geocoding queue)';
  }

  /** Lookups run one at a time (the rate limit holds even with concurrent callers). */
  lookup(address: string, signal?: AbortSignal): Promise<Coordinates | null> {
    const run = this.chain.then(() => this.lookupWithRetries(address, signal));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async lookupWithRetries(address: string, shutdown?: AbortSignal): Promise<Coordinates | null> {
    const deadline = AbortSignal.timeout(this.deadlineMs);
    const signal = shutdown ? AbortSignal.any([shutdown, deadline]) : deadline;
    let last: GeocodeError | undefined;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      if (signal.aborted) break;
      try {
        return await this.request(address, signal);
      } catch (err) {
        if (!(err instanceof GeocodeError) || !err.transient) throw err;
        last = err;
      }
    }
    if (shutdown?.aborted) throw new GeocodeError('nominatim: aborted', true);
    if (deadline.aborted) throw new GeocodeError(`nominatim: no answer within the lookup deadline of ${this.deadlineMs} ms`, true);
    throw last!;
  }

  private async request(address: string, signal?: AbortSignal): Promise<Coordinates | null> {
    const wait = this.nextSlot - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
    if (signal?.aborted) throw new GeocodeError('nominatim: aborted', true);
    this.nextSlot = Date.now() + this.minIntervalMs;
    const url = `${this.base}/search?q=${encodeURIComponent(address)}&format=jsonv2&limit=1`;
    let body: unknown;
    // the attempt's own timer (see io/deadline.ts): it bounds the answer and its body
    const limit = new Deadline(this.timeoutMs, signal);
    try {
      let response: Response;
      try {
        // a redirect is not followed: the operator named the geocoder's address
        response = await limit.race(
          fetch(url, { headers: { 'user-agent': this.userAgent, accept: 'application/json' }, signal: limit.signal, redirect: 'error' }),
        );
      } catch (err) {
        if (isRedirectRefusal(err)) throw new GeocodeError('nominatim: answered with a redirect, which is not followed', false);
        const e = err as Error;
        const reason = signal?.aborted ? 'aborted' : e.name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : e.message;
        throw new GeocodeError(`nominatim: ${reason}`, true);
      } finally {
        // The interval also counts from the answer: the server handled this request before it
        // answered, so the next one reaches it at least minIntervalMs later, however long this
        // one spent on the way (counted from the start only, a slow first request on a new
        // connection let the server see two requests 988 ms apart).
        this.nextSlot = Math.max(this.nextSlot, Date.now() + this.minIntervalMs);
      }
      if (response.status >= 500 || response.status === 429) {
        await limit.discard(response);
        throw new GeocodeError(`nominatim: HTTP ${response.status}`, true);
      }
      if (!response.ok) {
        await limit.discard(response);
        throw new GeocodeError(`nominatim: HTTP ${response.status}`, false);
      }
      try {
        body = await readCappedJson(response, MAX_ANSWER_BYTES, limit);
      } catch (err) {
        if (err instanceof BodyTooLargeError) throw new GeocodeError(`nominatim: ${err.message}`, false);
        const e = err as Error;
        throw new GeocodeError(`nominatim: unreadable answer (${e.message})`, e.name === 'TimeoutError' || signal?.aborted === true);
      }
    } finally {
      limit.close();
    }
    if (!Array.isArray(body)) throw new GeocodeError('nominatim: answer is not a list', false);
    if (body.length === 0) return null;
    const first = body[0] as { lat?: unknown; lon?: unknown };
    const lat = typeof first.lat === 'string' || typeof first.lat === 'number' ? parseScaled(first.lat, 6) : undefined;
    const lon = typeof first.lon === 'string' || typeof first.lon === 'number' ? parseScaled(first.lon, 6) : undefined;
    if (lat === undefined || lon === undefined || Math.abs(lat) > 90e6 || Math.abs(lon) > 180e6) {
      throw new GeocodeError('nominatim: first result has no valid lat/lon', false);
    }
    return { lat_e6: lat, lon_e6: lon };
  }
}

export type GeocoderName = 'table' | 'nominatim' | 'none';

export function createGeocoder(
  name: GeocoderName,
  options: { addressBook?: string; url?: string; nominatim?: Partial<NominatimOptions> },
): Geocoder | null {
  switch (name) {
    case 'none':
      return null;
    case 'table':
      if (!options.addressBook) throw new Error('the table geocoder needs an address book file');
      return new TableGeocoder(AddressBook.load(options.addressBook));
    case 'nominatim':
      return new NominatimGeocoder({ ...options.nominatim, url: options.url ?? 'https://nominatim.openstreetmap.org' });
  }
}

/** The URL without its trailing slashes (a loop, not a regex: linear on any input). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
