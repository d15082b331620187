/** What one request may cost the server: body sizes per route and the whole-request time. */
/**
 * One order with every field at its limit: the contract's text fields (address 512, external_id
 * 128, name and recipient 255, phone 30: 1,180 characters) in any script, up to 3 bytes a
 * character in UTF-8; notes at our own 10,000-character cap in ASCII; 600 bytes for the keys,
 * numbers, dates and punctuation. 14,140 bytes.
 */
const ORDER_MAX_BYTES = 3 * (512 + 128 + 255 + 255 + 30) + 10_000 + 600;

/** Body limits, per route: a body over its route's limit is 413 before it is read further. */
export const BODY_LIMITS = {
  /** Every route not named below. */
  default: 64 * 1024,
  /** 500 orders with every field at its limit, in whole KiB: 6,905 KiB, 6.74 MiB (8 MiB until issue 38). */
  bulk: Math.ceil((500 * ORDER_MAX_BYTES) / 1024) * 1024,
  /** 500 order ids and 500 external_ids of 128 characters. */
  planning: 1024 * 1024,
  /** 1000 positions. */
  positions: 512 * 1024,
} as const;

/**
 * JSON values a body may hold (json-body.ts counts them before parsing): what the route's largest
 * honest body holds, twice over. An order has at most 16 (15 fields and itself).
 */
export const JSON_VALUES = {
  bulk: 500 * 32,
  /** 500 order ids, 500 external ids, the vehicle ids. */
  planning: 4_096,
  /** 1000 positions of 5 fields. */
  positions: 12_000,
} as const;

/** Whole request (headers and body) must arrive within this; a slow client cannot hold a socket. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** A vehicle position may be stamped this far ahead of the server clock (device clock skew), no more. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
