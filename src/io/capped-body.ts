/**
 * Reading an outside service's answer at a bounded cost: a body larger than the caller expects is
 * refused as it streams in (or at once, from its Content-Length), before it is held whole or
 * parsed. An OSRM or Nominatim that answers gigabytes, by fault or by malice, costs at most `maxBytes`
 * of memory and no parse. The outbound rules of docs/contract/operations.md; issue 38.
 */
import type { Deadline } from './deadline.js';

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** The body of `response` as text, at most `maxBytes` bytes, within `limit`'s time. */
export async function readCappedText(response: Response, maxBytes: number, limit: Deadline): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await limit.discard(response);
    throw new BodyTooLargeError(maxBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await limit.race(reader.read());
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await limit.race(reader.cancel()).catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** The body of `response` parsed as JSON, at most `maxBytes` bytes (a SyntaxError when it is not JSON). */
export async function readCappedJson(response: Response, maxBytes: number, limit: Deadline): Promise<unknown> {
  return JSON.parse(await readCappedText(response, maxBytes, limit));
}

/** Did fetch refuse a redirect (`redirect: 'error'`)? undici says so in the cause. */
export function isRedirectRefusal(err: unknown): boolean {
  const cause = (err as { cause?: unknown } | null)?.cause;
  return cause instanceof Error && /redirect/i.test(cause.message);
}
