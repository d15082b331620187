/**
 * JSON bodies at a cost bounded before it is paid. `JSON.parse` builds every value of a body
 * before any count can be checked, and a reviver calls back once per value: a flat array of four
 * million numbers held the event loop for seconds (issue 38). So a body is first *scanned*: the
 * scan walks the structural characters only (strings are skipped with the engine's `indexOf`),
 * counts values and nesting, and stops at the first limit passed, after at most `maxValues`
 * values. Only a body within its route's limits is handed to a plain `JSON.parse`, no reviver.
 *
 * The scan also refuses the key `__proto__` (spelt plainly or with \u escapes): a parsed body
 * holds it as an own property, harmless until some later spread or assign copies it onto a
 * prototype.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { errorCodes } from 'fastify';
import { HttpError } from './errors.js';

/** No body of ours nests deeper than 4 (a bulk array of orders); 32 leaves room and bounds recursion. */
export const MAX_JSON_DEPTH = 32;
/** Values in one body (each scalar, array and object counts one) unless the route says otherwise. */
export const DEFAULT_MAX_JSON_VALUES = 4_096;

export interface JsonLimits {
  /** Values the body may hold (default DEFAULT_MAX_JSON_VALUES). */
  maxValues?: number;
  /** When the body is an array: its most items, and the error for one over. */
  maxTopItems?: { max: number; error: (got: number | string) => HttpError };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    json?: JsonLimits;
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const COLON = 58;

function malformed(message: string): HttpError {
  return new HttpError(400, { detail: `Malformed JSON: ${message}` });
}

/** Longest raw spelling of the key `__proto__`: nine characters, each escaped as \\uXXXX. */
const PROTO_RAW_MAX = 54;

/** Are these raw string bytes (between the quotes) the key `__proto__`, plainly or escaped? */
function isProtoKey(raw: number[]): boolean {
  if (raw.length < 9 || raw.length > PROTO_RAW_MAX) return false;
  const text = String.fromCharCode(...raw);
  if (text === '__proto__') return true;
  if (!text.includes('\\')) return false;
  try {
    return JSON.parse(`"${text}"`) === '__proto__';
  } catch {
    return false; // a bad escape: JSON.parse of the whole body says so
  }
}

/**
 * The scan, fed the body's bytes as they arrive (UTF-8: every structural character is one ASCII
 * byte, and no byte of a multi-byte character is below 0x80, so bytes can be walked as they are,
 * a chunk at a time, without decoding). Its state carries over from one chunk to the next: a
 * string, an escape or a key may be cut anywhere. `push` throws an HttpError at the first limit
 * passed, so a hostile body is refused at the chunk that passes it, before the rest is read; `end`
 * makes the last check. The walk trusts nothing: on bytes that are not JSON its counts may be off,
 * and the JSON.parse that follows refuses them.
 */
export class JsonScanner {
  private readonly maxValues: number;
  private readonly top: JsonLimits['maxTopItems'];
  private depth = 0;
  private values = 1; // the body itself
  private topItems = 0;
  private topIsArray = false;
  private topEmpty = true;
  private inString = false;
  /** Inside a string, the byte before was an unescaped backslash. */
  private escaped = false;
  /** The raw bytes of the string being read, while it may still be the key `__proto__`. */
  private raw: number[] | undefined;
  /** A string `__proto__` just closed: a colon next makes it a key. */
  private protoPending = false;

  constructor(limits: JsonLimits = {}) {
    this.maxValues = limits.maxValues ?? DEFAULT_MAX_JSON_VALUES;
    this.top = limits.maxTopItems;
  }

  private tooMany(): never {
    if (this.top && this.topIsArray && this.topItems + 1 > this.top.max) throw this.top.error(`more than ${this.topItems}`);
    throw new HttpError(413, { detail: `Request body holds too many JSON values (at most ${this.maxValues}).` });
  }

  private keep(bytes: Uint8Array, from: number, to: number): void {
    const raw = this.raw!;
    if (raw.length + (to - from) > PROTO_RAW_MAX) {
      this.raw = undefined; // too long to be the key
      return;
    }
    for (let k = from; k < to; k++) raw.push(bytes[k]!);
  }

  push(bytes: Uint8Array): void {
    const n = bytes.length;
    // inside strings the engine's indexOf skips to the next quote or backslash; each is looked
    // for again only once passed (-2: not looked for yet; -1: none left in this chunk)
    let quote = -2;
    let slash = -2;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        if (this.escaped) {
          if (this.raw) this.keep(bytes, i, i + 1);
          this.escaped = false;
          i++;
          continue;
        }
        if (quote !== -1 && quote < i) quote = bytes.indexOf(QUOTE, i);
        if (slash !== -1 && slash < i) slash = bytes.indexOf(BACKSLASH, i);
        let stop = n;
        if (quote >= 0) stop = quote;
        if (slash >= 0 && slash < stop) stop = slash;
        if (this.raw) this.keep(bytes, i, stop === slash ? stop + 1 : stop);
        if (stop === n) return;
        i = stop + 1;
        if (stop === slash) {
          this.escaped = true;
          continue;
        }
        this.inString = false;
        if (this.raw && isProtoKey(this.raw)) this.protoPending = true;
        this.raw = undefined;
        continue;
      }
      const c = bytes[i]!;
      i++;
      if (c <= 32) continue;
      if (this.protoPending) {
        this.protoPending = false;
        if (c === COLON) throw malformed('forbidden key "__proto__"');
      }
      if (c === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.topIsArray) this.topEmpty = false;
        // a key `__proto__` starts with '_' or an escape
        const first = i < n ? bytes[i] : undefined;
        this.raw = first === undefined || first === 95 || first === BACKSLASH ? [] : undefined;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (this.depth === 0) this.topIsArray = c === OPEN_ARRAY;
        else if (this.depth === 1 && this.topIsArray) this.topEmpty = false;
        this.depth++;
        if (this.depth > MAX_JSON_DEPTH) throw malformed(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
        // values = 1 + containers + commas: a non-empty container holds one more item than its
        // commas (an empty one is counted one too many, which errs on the safe side)
        if (++this.values > this.maxValues) this.tooMany();
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        this.depth--;
      } else if (c === COMMA) {
        if (this.depth === 1 && this.topIsArray) this.topItems++;
        if (++this.values > this.maxValues) this.tooMany();
      } else if (this.depth === 1 && this.topIsArray) {
        this.topEmpty = false;
      }
    }
  }

  /** The whole body has been pushed: the top array's item count, now known. */
  end(): void {
    if (this.top && this.topIsArray && !this.topEmpty && this.topItems + 1 > this.top.max) throw this.top.error(this.topItems + 1);
  }
}

/** Scans a whole body held as a string (tests, benches; the app scans bytes as they arrive). */
export function scanJson(text: string, limits: JsonLimits = {}): void {
  const scanner = new JsonScanner(limits);
  scanner.push(Buffer.from(text, 'utf8'));
  scanner.end();
}

/** A scanned body's text parsed; '' (or only white space) is no body. */
export function parseScanned(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw malformed((err as Error).message);
  }
}

/** The body of a request: scanned against its route's limits, then parsed; '' is no body. */
export function parseJsonBody(text: string, limits: JsonLimits | undefined): unknown {
  if (text.trim() === '') return undefined;
  scanJson(text, limits);
  return parseScanned(text);
}

/**
 * Reads a request's body as it arrives and hands the parsed value to `done` (undefined: no body).
 * Each chunk is scanned when it comes (JsonScanner): a body that passes its route's limits is
 * refused at that chunk, the rest never read, kept nor decoded (issue 38: concatenating and
 * decoding a 7 MB hostile body before looking at it held the event loop for tens of ms). A chunk
 * that passes is decoded then too (a character cut between chunks is completed by the next), so
 * the end has only the join and the JSON.parse left: 5.6 MB of Cyrillic took 50-80 ms to decode
 * at once, 0.1-10 ms a chunk (bench/parse-bodies.ts). The
 * body limit is checked on Content-Length first and on the bytes received, as fastify's own
 * reader does (the same errors: 413 too large, 400 when the length does not match).
 */
export function readJsonBody(
  payload: Readable,
  options: { limits: JsonLimits | undefined; bodyLimit: number; contentLength: string | undefined },
  done: (err: Error | null, body?: unknown) => void,
): void {
  const declared = Number(options.contentLength);
  if (declared > options.bodyLimit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const scanner = new JsonScanner(options.limits);
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  let received = 0;
  const finish = (err: Error | null, body?: unknown) => {
    payload.off('data', onData);
    payload.off('end', onEnd);
    payload.off('error', onError);
    done(err, body);
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (received > options.bodyLimit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    try {
      scanner.push(bytes);
    } catch (err) {
      return finish(err as Error);
    }
    parts.push(decoder.write(bytes));
  };
  const onEnd = () => {
    if (!Number.isNaN(declared) && received !== declared) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    try {
      scanner.end();
      parts.push(decoder.end());
      const text = parts.length === 1 ? parts[0]! : parts.join('');
      parts.length = 0;
      finish(null, parseScanned(text));
    } catch (err) {
      finish(err as Error);
    }
  };
  const onError = (err: Error & { statusCode?: number }) => {
    if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
    finish(err);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
