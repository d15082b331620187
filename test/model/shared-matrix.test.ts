import { describe, expect, it } from 'vitest';
import type { MatrixInput, ProblemInput } from '../../src/model/input.js';
import { buildMatrix, locationOrder } from '../../src/model/matrix.js';
import {
  allocateSharedMatrix,
  obtainSharedMatrix,
  omitMatrixInput,
  settleSharedTask,
  SharedMatrixError,
  sharedMatrixBuilds,
  sharedMatrixReady,
  sharedMatrixRef,
} from '../../src/model/shared-matrix.js';

// One thread here: the protocol's states, not the blocking (test/pool/shared-matrix.test.ts runs
// it on real worker threads).
const coords: MatrixInput = { kind: 'euclidean', coordinates: [[0, 0], [3, 4], [6, 8], [1, 1]], rounding: 'trunc1', speed: 2 };
const explicit: MatrixInput = { kind: 'explicit', distance: [[0, 1, null], [2, 0, 3], [4, 5, 0]], duration: [[0, 2, 2], [null, 0, 1], [1, 1, 0]] };
// where the locations are: the rows are laid out along a Hilbert curve (location 2 first here)
const placed: MatrixInput = { ...explicit, coordinates: [[52.5, 13.9], [52.6, 13.9], [52.4, 13.1]] };
// compact (32-bit floats: haversine, whole numbers) and not (a tenth in an explicit matrix)
const haversine: MatrixInput = { kind: 'haversine', coordinates: [[52.5, 13.9], [52.6, 13.9], [52.4, 13.1], [52.45, 13.5]] };
const tenths: MatrixInput = { kind: 'explicit', distance: [[0, 1.1], [2, 0]], duration: [[0, 2], [1, 0]] };

describe('the shared matrix', () => {
  it('the first task with the input builds into the shared buffers; the next one reads them', () => {
    for (const input of [coords, explicit, placed, haversine, tenths]) {
      const n = input.kind === 'explicit' ? input.distance.length : input.coordinates.length;
      const shared = allocateSharedMatrix(n);
      const a = obtainSharedMatrix(sharedMatrixRef(shared, 1, false), input);
      // the waiter's input says nothing of where the locations are: it takes the builder's layout
      const b = obtainSharedMatrix(sharedMatrixRef(shared, 2, true), { kind: 'explicit', distance: [], duration: [] });
      const own = buildMatrix(input, undefined, locationOrder(input));
      expect(Array.from(a.distance)).toEqual(Array.from(own.distance));
      expect(Array.from(a.duration)).toEqual(Array.from(own.duration));
      // the waiter sees what the builder stored: the same values, in arrays of the same kind
      expect(Array.from(b.distance)).toEqual(Array.from(own.distance));
      expect(Array.from(b.duration)).toEqual(Array.from(own.duration));
      for (const m of [a, b]) expect([m.distance.constructor, m.duration.constructor]).toEqual([own.distance.constructor, own.duration.constructor]);
      expect(own.distance instanceof Float32Array).toBe(input === explicit || input === placed || input === haversine);
      expect(a.index).toEqual(own.index);
      expect(b.index).toEqual(own.index);
      expect(own.index === undefined).toBe(input === explicit || input === tenths);
      if (input === placed) expect(Array.from(own.index!)).toEqual([2, 1, 0]);
      expect(a.distance.buffer).toBe(shared.distance);
      expect(b.distance.buffer).toBe(shared.distance);
      expect(b.duration.buffer).toBe(shared.duration);
      expect(sharedMatrixReady(shared)).toBe(true);
      expect(sharedMatrixBuilds(shared)).toBe(1);
    }
  });

  it('a builder that throws marks the build failed: a task without input fails, one with input builds its own', () => {
    const shared = allocateSharedMatrix(2);
    const broken = { kind: 'explicit', distance: [[0, 1], null], duration: [[0, 1], [1, 0]] } as unknown as MatrixInput;
    expect(() => obtainSharedMatrix(sharedMatrixRef(shared, 1, false), broken)).toThrow(TypeError);
    expect(() => obtainSharedMatrix(sharedMatrixRef(shared, 2, true), broken)).toThrow(SharedMatrixError);
    const fine: MatrixInput = { kind: 'explicit', distance: [[0, 1], [1, 0]], duration: [[0, 1], [1, 0]] };
    const own = obtainSharedMatrix(sharedMatrixRef(shared, 3, false), fine);
    expect(own.distance.buffer).not.toBe(shared.distance);
    expect(Array.from(own.distance)).toEqual([0, 1, 1, 0]);
    expect(sharedMatrixReady(shared)).toBe(false);
  });

  it('the posting side fails a build whose task settled unfinished, and one nobody claimed when the only carrier settled', () => {
    const claimed = allocateSharedMatrix(4);
    // a task that claimed (status = its token) and never published: its thread died
    new Int32Array(claimed.state)[0] = 1;
    settleSharedTask(sharedMatrixRef(claimed, 2, true)); // not the builder: nothing changes
    expect(() => obtainSharedMatrix(sharedMatrixRef(claimed, 3, true), coords, { maxWaitMs: 40 })).toThrow(/not ready in time/);
    settleSharedTask(sharedMatrixRef(claimed, 1, false));
    expect(() => obtainSharedMatrix(sharedMatrixRef(claimed, 3, true), coords)).toThrow(/its builder failed/);

    const unclaimed = allocateSharedMatrix(4);
    settleSharedTask(sharedMatrixRef(unclaimed, 2, true)); // a waiter settling does not fail it
    settleSharedTask(sharedMatrixRef(unclaimed, 1, false));
    expect(() => obtainSharedMatrix(sharedMatrixRef(unclaimed, 2, true), coords)).toThrow(/its builder failed/);
  });

  it('omitMatrixInput leaves out an explicit matrix only', () => {
    const p: ProblemInput = { matrix: explicit, depots: [{ id: 'd', location: 0 }], vehicles: [], orders: [] };
    expect(omitMatrixInput(p)).toEqual({ ...p, matrix: { kind: 'explicit', distance: [], duration: [] } });
    expect(p.matrix).toBe(explicit);
    const q: ProblemInput = { ...p, matrix: coords };
    expect(omitMatrixInput(q)).toBe(q);
    // where the locations are is small, and the cut of a cooperating solve needs it: it stays
    const located: ProblemInput = { ...p, matrix: { ...explicit, coordinates: [[51, 12], [51.1, 12], [51, 12.1]] } };
    expect(omitMatrixInput(located).matrix).toEqual({ kind: 'explicit', distance: [], duration: [], coordinates: [[51, 12], [51.1, 12], [51, 12.1]] });
  });
});
