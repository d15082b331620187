import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MatrixProviderError, osrmMatrix } from '../../src/matrix/osrm.js';
import { buildMatrix, compactMatrix } from '../../src/model/matrix.js';
import { fakeRoad, startFakeOsrm, type FakeOsrm } from '../helpers/fake-osrm.js';

const city: Array<[number, number]> = [
  [52.52, 13.405],
  [52.5, 13.3],
  [52.55, 13.45],
  [52.48, 13.42],
  [52.51, 13.38],
  [52.53, 13.36],
  [52.47, 13.47],
];

describe('osrm matrix provider', () => {
  let osrm: FakeOsrm;
  beforeAll(async () => {
    osrm = await startFakeOsrm();
  });
  afterAll(() => osrm.close());

  it('stitches blocks into the full matrix, every cell from the server', async () => {
    osrm.requests.length = 0;
    const m = await osrmMatrix(city, { url: osrm.url, blockSize: 3 });
    // 7 points in blocks of 3: 3 source blocks x 3 destination blocks.
    expect(osrm.requests).toHaveLength(9);
    expect(Math.max(...osrm.requests)).toBeLessThanOrEqual(6);
    for (let i = 0; i < city.length; i++) {
      for (let j = 0; j < city.length; j++) {
        const want = i === j ? 0 : fakeRoad.distance(city[i], city[j]);
        // each figure rounded to a 32-bit float, so that the engine stores the matrix compactly
        expect(m.distance[i][j]).toBe(Math.fround(want));
        expect(m.duration[i][j]).toBe(Math.fround(want / 10));
      }
    }
  });

  it('the engine stores its answer as 32-bit floats; a figure too large for one is no road', async () => {
    const m = await osrmMatrix(city, { url: osrm.url });
    expect(compactMatrix(m)).toBe(true);
    expect(buildMatrix(m).distance).toBeInstanceOf(Float32Array);
    // 1e39 is a finite JSON number but no 32-bit float: null, as OSRM's own "no road"
    const far = await osrmMatrix([...city.slice(0, 2), [-85, 13.4]], { url: osrm.url });
    expect([far.distance[0][2], far.duration[2][1]]).toEqual([null, null]);
    expect(far.distance[0][1]).toBe(Math.fround(fakeRoad.distance(city[0], city[1])));
    expect(compactMatrix(far)).toBe(true);
  });

  it('one request when the table fits a block', async () => {
    osrm.requests.length = 0;
    await osrmMatrix(city, { url: osrm.url });
    expect(osrm.requests).toEqual([7]);
  });

  it('keeps null for a point with no road, in both directions', async () => {
    const points: Array<[number, number]> = [...city.slice(0, 3), [85, 13.4]];
    const m = await osrmMatrix(points, { url: osrm.url, blockSize: 2 });
    for (let i = 0; i < 3; i++) {
      expect(m.distance[i][3]).toBeNull();
      expect(m.duration[3][i]).toBeNull();
      expect(m.distance[i][(i + 1) % 3]).not.toBeNull();
    }
    expect(m.distance[3][3]).toBe(0);
  });

  it('retries a 5xx answer and then succeeds', async () => {
    osrm.failNext = 2;
    const m = await osrmMatrix(city.slice(0, 3), { url: osrm.url, retryDelayMs: 1 });
    expect(m.distance[0][1]).toBeCloseTo(fakeRoad.distance(city[0], city[1]), 6);
    expect(osrm.failNext).toBe(0);
  });

  it('gives up with a readable error when the server keeps failing', async () => {
    osrm.failNext = 10;
    await expect(osrmMatrix(city.slice(0, 2), { url: osrm.url, retries: 1, retryDelayMs: 1 })).rejects.toThrow(
      /could not be reached: answered HTTP 500 \(after 2 tries\)/,
    );
    osrm.failNext = 0;
  });

  it('times out a server that does not answer', async () => {
    osrm.delayMs = 500;
    try {
      await expect(osrmMatrix(city.slice(0, 2), { url: osrm.url, timeoutMs: 50, retries: 0 })).rejects.toThrow(/timed out after 50 ms/);
    } finally {
      osrm.delayMs = 0;
    }
  });

  it('reports a refused request with the server message', async () => {
    const err = await osrmMatrix(city.slice(0, 2), { url: osrm.url, profile: 'no-such-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MatrixProviderError);
    expect((err as Error).message).toMatch(/refused the table request: HTTP 400 InvalidUrl/);
  });

  it('rejects a nonsensical block size', async () => {
    await expect(osrmMatrix(city, { url: osrm.url, blockSize: 0 })).rejects.toThrow(/blockSize/);
  });
});
