import { describe, expect, it } from 'vitest';
import { AddressBook, normalizeAddress, parseCsv } from '../../src/geocode/address-book.js';
import { GeocodeError, NominatimGeocoder, TableGeocoder } from '../../src/geocode/providers.js';
import { DEMO_ADDRESS_BOOK } from '../../src/service/demo.js';
import { place, startFakeNominatim } from './fake-nominatim.js';

describe('address book (table provider)', () => {
  it('parses quoted addresses with commas, doubled quotes, CRLF, a BOM and any column order', () => {
    const text = '\ufefflat,address,lon\r\n52.5,"Hof 2, Main St 1, Berlin",13.4\r\n1,"The ""Old"" Mill",2\r\n\r\n';
    expect(parseCsv(text)).toEqual([
      ['lat', 'address', 'lon'],
      ['52.5', 'Hof 2, Main St 1, Berlin', '13.4'],
      ['1', 'The "Old" Mill', '2'],
    ]);
    const book = AddressBook.fromCsv(text);
    expect(book.size).toBe(2);
    expect(book.lookup('hof 2 main st 1 berlin')).toEqual({ lat_e6: 52_500_000, lon_e6: 13_400_000 });
    expect(book.lookup('the "old" mill')).toEqual({ lat_e6: 1_000_000, lon_e6: 2_000_000 });
  });

  it('matches on a normalised address: case, spaces and punctuation folded', () => {
    expect(normalizeAddress('  Hof 2,  MAIN st. 1 ;Berlin ')).toBe('hof 2 main st 1 berlin');
    expect(normalizeAddress('Schloßstraße 34')).toBe('schloßstraße 34');
    const book = AddressBook.fromCsv('address,lat,lon\n"Unter den Linden 77, 10117 Berlin",52.516074,13.380175\n');
    expect(book.lookup('UNTER DEN LINDEN 77 10117 BERLIN')).toEqual({ lat_e6: 52_516_074, lon_e6: 13_380_175 });
    expect(book.lookup('Unter-den-Linden 77/10117 Berlin!')).toBeDefined();
    expect(book.lookup('Unter den Linden 78, 10117 Berlin')).toBeUndefined();
  });

  it('refuses a file without the header or with bad coordinates, naming the row', () => {
    expect(() => AddressBook.fromCsv('')).toThrow(/empty file/);
    expect(() => AddressBook.fromCsv('street,lat,lon\nx,1,2\n')).toThrow(/no 'address' column/);
    expect(() => AddressBook.fromCsv('address,lat,lon\nx,1,2\ny,north,2\n')).toThrow(/row 3: invalid lat\/lon/);
    expect(() => AddressBook.fromCsv('address,lat,lon\n"x,1,2\n')).toThrow(/unterminated/);
  });

  it('the shipped demo address book loads and answers', async () => {
    const book = AddressBook.load(DEMO_ADDRESS_BOOK());
    expect(book.size).toBeGreaterThanOrEqual(30);
    const geocoder = new TableGeocoder(book);
    expect(await geocoder.lookup('alexanderplatz 1, 10178 berlin')).toEqual({ lat_e6: 52_521_918, lon_e6: 13_413_215 });
    expect(await geocoder.lookup('Nowhere 1')).toBeNull();
  });
});

describe('nominatim provider against a real local server', () => {
  it('asks /search?q=...&format=jsonv2&limit=1 and reads the first result; an empty list is null', async () => {
    const server = await startFakeNominatim((q) => (q.startsWith('Known') ? { status: 200, body: place('52.5200066', '13.404954') } : { status: 200, body: [] }));
    try {
      const g = new NominatimGeocoder({ url: server.url + '/', minIntervalMs: 0 });
      expect(await g.lookup('Known street 1, Berlin')).toEqual({ lat_e6: 52_520_007, lon_e6: 13_404_954 });
      expect(await g.lookup('Unknown')).toBeNull();
      expect(server.seen[0]!.path).toBe('/search');
      expect(Object.fromEntries(server.seen[0]!.query)).toEqual({ q: 'Known street 1, Berlin', format: 'jsonv2', limit: '1' });
      expect(server.seen[0]!.userAgent).toMatch(/delivery-planner/);
    } finally {
      await server.close();
    }
  });

  it('retries on 5xx and on time-outs, then answers', async () => {
    const server = await startFakeNominatim((_q, n) =>
      n === 1 ? { status: 503, body: { error: 'busy' } } : n === 2 ? 'hang' : { status: 200, body: place('1.5', '2.5') },
    );
    try {
      const g = new NominatimGeocoder({ url: server.url, minIntervalMs: 0, timeoutMs: 300, attempts: 3 });
      expect(await g.lookup('Somewhere')).toEqual({ lat_e6: 1_500_000, lon_e6: 2_500_000 });
      expect(server.seen).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('one deadline for a lookup, however many attempts are left', async () => {
    const server = await startFakeNominatim(() => 'hang');
    try {
      const g = new NominatimGeocoder({ url: server.url, minIntervalMs: 0, timeoutMs: 60_000, attempts: 5, deadlineMs: 200 });
      const late = await g.lookup('Somewhere').catch((e: unknown) => e);
      expect(late).toMatchObject({ transient: true, message: 'nominatim: no answer within the lookup deadline of 200 ms' });
      expect(server.seen).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('gives a transient error after the attempts run out, a permanent one on 4xx or garbage', async () => {
    const server = await startFakeNominatim((q) =>
      q === 'down' ? { status: 500 } : q === 'bad' ? { status: 400, body: { error: 'bad' } } : { status: 200, body: { not: 'a list' } },
    );
    try {
      const g = new NominatimGeocoder({ url: server.url, minIntervalMs: 0, attempts: 2 });
      const down = await g.lookup('down').catch((e: unknown) => e);
      expect(down).toBeInstanceOf(GeocodeError);
      expect(down).toMatchObject({ transient: true, message: 'nominatim: HTTP 500' });
      expect(server.seen).toHaveLength(2);
      expect(await g.lookup('bad').catch((e: unknown) => e)).toMatchObject({ transient: false });
      expect(await g.lookup('garbage').catch((e: unknown) => e)).toMatchObject({ transient: false });
      const refused = new NominatimGeocoder({ url: 'http://127.0.0.1:9', minIntervalMs: 0, attempts: 1 });
      expect(await refused.lookup('x').catch((e: unknown) => e)).toMatchObject({ transient: true });
    } finally {
      await server.close();
    }
  });

  it('sends at most one request a second, even to concurrent callers', async () => {
    const server = await startFakeNominatim(() => ({ status: 200, body: [] }));
    try {
      const g = new NominatimGeocoder({ url: server.url });
      await Promise.all([g.lookup('a'), g.lookup('b'), g.lookup('c')]);
      const gaps = server.seen.slice(1).map((s, i) => s.at - server.seen[i]!.at);
      expect(gaps).toHaveLength(2);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(990);
    } finally {
      await server.close();
    }
  });
});
