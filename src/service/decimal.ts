/**
 * Exact decimal handling for the contract's decimal fields: input (a JSON number or a decimal
 * string) becomes an integer scaled by 10^decimals, rounded half away from zero; output is a
 * string with exactly `decimals` digits after the point. No binary floating point in between.
 */
const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/** The value times 10^decimals as a safe integer, or undefined when it is not a finite decimal. */
export function parseScaled(value: number | string, decimals: number): number | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else {
    text = value.trim();
    if (text.length === 0 || text.length > 64) return undefined;
  }
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const [, sign, intPart = '', fracPart = '', expText] = m;
  if (intPart.length === 0 && fracPart.length === 0) return undefined;
  const digits = (intPart + fracPart).replace(/^0+(?=\d)/, '');
  const point = digits.length - fracPart.length + Number(expText ?? 0) + decimals;
  if (point > 20) return undefined; // far beyond any limit: reject before building a huge number
  let whole: string;
  let rest: string;
  if (point <= 0) {
    whole = '0';
    rest = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + '0'.repeat(point - digits.length);
    rest = '';
  } else {
    whole = digits.slice(0, point);
    rest = digits.slice(point);
  }
  let scaled = BigInt(whole);
  if (rest.length > 0 && rest[0]! >= '5') scaled += 1n;
  if (scaled > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  const n = Number(scaled);
  return sign === '-' && n !== 0 ? -n : n;
}

/** The scaled integer as a decimal string with exactly `decimals` fraction digits. */
export function formatScaled(scaled: number, decimals: number): string {
  const negative = scaled < 0;
  const digits = String(Math.abs(scaled)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? '.' + frac : ''}`;
}
