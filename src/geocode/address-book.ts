/**
 * The `table` provider's address book: a CSV file with the header `address,lat,lon` (columns in
 * any order, more columns ignored), RFC 4180 quoting (an address holding a comma is quoted, a
 * quote inside is doubled). Addresses match on a normalised form: case, spaces and punctuation
 * folded, accents kept.
 */
import { readFileSync } from 'node:fs';
import { parseScaled } from '../service/decimal.js';

export interface Coordinates {
  /** micro-degrees */
  lat_e6: number;
  lon_e6: number;
}

/** Lower case, every run of punctuation or white space becomes one space, trimmed. */
export function normalizeAddress(address: string): string {
  return address
    .normalize('NFKC')
    .toLocaleLowerCase('en-US')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Parses CSV text into rows of fields (RFC 4180; CRLF or LF; a BOM is skipped). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let fieldStarted = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
      fieldStarted = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (fieldStarted || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0]!.trim() === ''));
}

export class AddressBook {
  private readonly entries = new Map<string, Coordinates>();

  constructor(rows: { address: string; lat: string; lon: string }[], source = 'address book') {
    rows.forEach((r, i) => {
      const lat = parseScaled(r.lat, 6);
      const lon = parseScaled(r.lon, 6);
      if (lat === undefined || lon === undefined || Math.abs(lat) > 90e6 || Math.abs(lon) > 180e6) {
        throw new Error(`${source}: row ${i + 2}: invalid lat/lon '${r.lat}', '${r.lon}'`);
      }
      const key = normalizeAddress(r.address);
      if (key !== '' && !this.entries.has(key)) this.entries.set(key, { lat_e6: lat, lon_e6: lon });
    });
  }

  static fromCsv(text: string, source = 'address book'): AddressBook {
    const [header, ...rows] = parseCsv(text);
    if (!header) throw new Error(`${source}: empty file; expected the header address,lat,lon`);
    const names = header.map((h) => h.trim().toLowerCase());
    const col = (name: string) => {
      const i = names.indexOf(name);
      if (i < 0) throw new Error(`${source}: the header has no '${name}' column (expected address,lat,lon)`);
      return i;
    };
    const [a, la, lo] = [col('address'), col('lat'), col('lon')];
    return new AddressBook(
      rows.map((r) => ({ address: r[a] ?? '', lat: r[la] ?? '', lon: r[lo] ?? '' })),
      source,
    );
  }

  static load(path: string): AddressBook {
    return AddressBook.fromCsv(readFileSync(path, 'utf8'), path);
  }

  get size(): number {
    return this.entries.size;
  }

  lookup(address: string): Coordinates | undefined {
    return this.entries.get(normalizeAddress(address));
  }
}
