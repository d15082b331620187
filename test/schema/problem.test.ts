import { describe, expect, it } from 'vitest';
import { parseProblem, ProblemValidationError } from '../../src/schema/problem.js';
import { randomProblem } from '../helpers/problems.js';

function messages(data: unknown): string[] {
  try {
    parseProblem(data);
  } catch (e) {
    expect(e).toBeInstanceOf(ProblemValidationError);
    return (e as Error).message.split('\n');
  }
  return [];
}

describe('problem schema', () => {
  const ok = randomProblem({ orders: 5, vehicles: 2, seed: 1, windows: true });

  it('accepts a valid problem', () => {
    expect(messages(ok)).toEqual([]);
  });

  it('names the field path and the rule', () => {
    const bad = structuredClone(ok);
    bad.orders[2].timeWindow = [50, 10];
    bad.vehicles[1].capacity.weight = -3;
    expect(messages(bad)).toEqual(['vehicles[1].capacity.weight: must be >= 0 (weight)', 'orders[2].timeWindow: start must not be after end']);
  });

  it('checks references between parts', () => {
    const bad = structuredClone(ok);
    bad.vehicles[0].startDepot = 'nowhere';
    bad.orders[1].location = 99;
    bad.orders[3].id = bad.orders[0].id;
    expect(messages(bad)).toEqual([
      "vehicles[0].startDepot: must name a depot (unknown 'nowhere')",
      'orders[1].location: must be < 6 (the number of matrix locations)',
      "orders[3].id: duplicate order id 'o1'",
    ]);
  });

  it('rejects unknown matrix kinds and non-square explicit matrices', () => {
    expect(messages({ ...ok, matrix: { kind: 'manhattan' } })[0]).toMatch(/^matrix\.kind: kind must be 'euclidean', 'haversine' or 'explicit'/);
    expect(messages({ ...ok, matrix: { kind: 'explicit', distance: [[0, 1], [1]], duration: [[0, 1], [1, 0]] }, depots: [{ id: 'd', location: 0 }], orders: [], vehicles: [] })).toEqual([
      'matrix.distance[1]: row must have 2 entries (the matrix must be square)',
    ]);
    // an explicit matrix may say where its locations are: one [lat, lon] a row
    const square = { distance: [[0, 1], [1, 0]], duration: [[0, 1], [1, 0]] };
    const two = { depots: [{ id: 'd', location: 0 }], orders: [], vehicles: [] };
    expect(messages({ ...ok, ...two, matrix: { kind: 'explicit', ...square, coordinates: [[51.3, 12.4], [51.2, 12.3]] } })).toEqual([]);
    expect(messages({ ...ok, ...two, matrix: { kind: 'explicit', ...square, coordinates: [[51.3, 12.4]] } })).toEqual([
      'matrix.coordinates: must have 2 entries, one per matrix row',
    ]);
    expect(messages({ ...ok, ...two, matrix: { kind: 'explicit', ...square, coordinates: [[51.3, 12.4], [51.2, 181]] } })).toEqual([
      'matrix.coordinates[1][1]: longitude must be within [-180, 180]',
    ]);
    // without its rows (a task that reads the shared matrix): checked against the number of locations given
    const slim = { kind: 'explicit', distance: [], duration: [], coordinates: [[51.3, 12.4], [51.2, 12.3]] };
    const refs = (locations: number, data: unknown) => {
      try {
        parseProblem(data, { locations });
        return [];
      } catch (e) {
        return (e as Error).message.split('\n');
      }
    };
    expect(refs(2, { ...ok, ...two, matrix: slim })).toEqual([]);
    expect(refs(3, { ...ok, ...two, matrix: slim })).toEqual(['matrix.coordinates: must have 3 entries, one per matrix row']);
    expect(refs(1, { ...ok, ...two, depots: [{ id: 'd', location: 1 }], matrix: { ...slim, coordinates: undefined } })).toEqual([
      'depots[0].location: must be < 1 (the number of matrix locations)',
    ]);
    expect(messages({ ...ok, matrix: { kind: 'haversine', coordinates: [[91, 0]], speedKmh: 0 } })).toEqual(
      expect.arrayContaining(['matrix.coordinates[0][0]: latitude must be within [-90, 90]', 'matrix.speedKmh: must be > 0 (km/h)']),
    );
  });

  it('reports missing fields by name', () => {
    expect(messages({})).toEqual(expect.arrayContaining(['orders: must be an array of orders']));
    const bad = structuredClone(ok) as unknown as { orders: Array<Record<string, unknown>> };
    delete bad.orders[0].serviceTime;
    expect(messages(bad)).toEqual(['orders[0].serviceTime: must be a number (serviceTime)']);
  });
});
