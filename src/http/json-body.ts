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

/** Is the string from `start` (after its quote) to `end` (its closing quote) the key `__proto__`? */
function isProtoKey(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 9 || length > 54) return false;
  const first = text.charCodeAt(start);
  if (first !== 95 && first !== BACKSLASH) return false; // '_' or an escape
  const raw = text.slice(start, end);
  if (raw === '__proto__') return true;
  if (!raw.includes('\\')) return false;
  try {
    return JSON.parse(`"${raw}"`) === '__proto__';
  } catch {
    return false; // a bad escape: JSON.parse of the whole body says so
  }
}

/**
 * Walks `text` and throws an HttpError at the first limit it passes. The walk trusts nothing:
 * on text that is not JSON its counts may be off, and the JSON.parse that follows refuses it.
 */
export function scanJson(text: string, limits: JsonLimits = {}): void {
  const maxValues = limits.maxValues ?? DEFAULT_MAX_JSON_VALUES;
  const top = limits.maxTopItems;
  let depth = 0;
  let values = 1; // the body itself
  let topItems = 0;
  let topIsArray = false;
  let topEmpty = true;
  const n = text.length;
  const tooMany = (): never => {
    if (top && topIsArray && topItems + 1 > top.max) throw top.error(`more than ${topItems}`);
    throw new HttpError(413, { detail: `Request body holds too many JSON values (at most ${maxValues}).` });
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // jump to the closing quote: one not preceded by an odd run of backslashes
      const start = i + 1;
      let end = text.indexOf('"', start);
      while (end > 0) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end < 0) return; // unterminated: JSON.parse says so
      if (depth === 1 && topIsArray) topEmpty = false;
      if (isProtoKey(text, start, end)) {
        let j = end + 1;
        while (j < n && text.charCodeAt(j) <= 32) j++;
        if (text.charCodeAt(j) === COLON) throw malformed('forbidden key "__proto__"');
      }
      i = end;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 0) topIsArray = c === OPEN_ARRAY;
      else if (depth === 1 && topIsArray) topEmpty = false;
      depth++;
      if (depth > MAX_JSON_DEPTH) throw malformed(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
      // values = 1 + containers + commas: a non-empty container holds one more item than its
      // commas (an empty one is counted one too many, which errs on the safe side)
      if (++values > maxValues) tooMany();
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA) {
      if (depth === 1 && topIsArray) topItems++;
      if (++values > maxValues) tooMany();
    } else if (depth === 1 && topIsArray && c > 32) {
      topEmpty = false;
    }
  }
  if (top && topIsArray && !topEmpty && topItems + 1 > top.max) throw top.error(topItems + 1);
}

/** The body of a request: scanned against its route's limits, then parsed; '' is no body. */
export function parseJsonBody(text: string, limits: JsonLimits | undefined): unknown {
  if (text.trim() === '') return undefined;
  scanJson(text, limits);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw malformed((err as Error).message);
  }
}
