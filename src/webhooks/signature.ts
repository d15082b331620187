/**
 * Webhook signatures as docs/contract/operations.md fixes them: `X-Planner-Signature: t=UNIX_SECONDS,v1=HEX`,
 * HEX = HMAC-SHA256 of `"{t}.{raw body}"` keyed with the subscription's secret (the Stripe scheme).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const hex = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${hex}`;
}

/**
 * What a receiver does: parse the header, recompute, compare in constant time, and refuse a
 * timestamp further than `toleranceSeconds` from `nowSeconds` (replay protection).
 */
export function verifySignature(
  secret: string,
  header: string,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(header.split(',').map((kv) => kv.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isInteger(t) || !given || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = signatureHeader(secret, t, rawBody).slice(`t=${t},v1=`.length);
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}
