/** What one request may cost the server: body sizes per route and the whole-request time. */
/**
 * Body limits, per route: a body over its route's limit is 413 before it is parsed. One order
 * with every field at its limit (public-api.md 8), escaped as \uXXXX, is under 8 KiB.
 */
export const BODY_LIMITS = {
  /** Every route not named below. */
  default: 64 * 1024,
  /** 500 orders with every field at its limit. */
  bulk: 8 * 1024 * 1024,
  /** 500 order ids and 500 external_ids of 128 characters. */
  planning: 1024 * 1024,
  /** 1000 positions. */
  positions: 512 * 1024,
} as const;
/** Whole request (headers and body) must arrive within this; a slow client cannot hold a socket. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** A vehicle position may be stamped this far ahead of the server clock (device clock skew), no more. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
