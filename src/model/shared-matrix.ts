/**
 * One distance/duration matrix for every thread working on one solve, in SharedArrayBuffers.
 *
 * The posting (event-loop) thread only allocates: zeroed buffers and a small state word, which is
 * cheap. The first task that starts and carries the matrix input claims the build
 * (Atomics.compareExchange), fills the arrays and publishes them (Atomics.store + notify); a task
 * that starts meanwhile blocks in Atomics.wait until then. After publication nobody writes the
 * arrays again (the solver only reads `p.dist` / `p.dur`).
 *
 * A build can fail: the builder throws (it marks the state failed itself), or its thread dies or is
 * terminated (then the posting side marks it, see `settleSharedTask`, since it sees the task
 * settle). A waiter also gives up after `maxWaitMs`. A waiter that carries the input then builds its
 * own private copy; one whose input was left out (`omitMatrixInput`) fails with SharedMatrixError.
 *
 * Every task given one SharedMatrix must solve the same problem: a task whose input was left out
 * is not validated again (the builder validated the full input; the other fields are the same).
 */
import type { MatrixInput, ProblemInput } from './input.js';
import { buildMatrix, compactMatrix, locationOrder, type Matrix } from './matrix.js';

/** Plain data: structured clone passes the buffers by reference, so every thread sees one copy. */
export interface SharedMatrix {
  size: number;
  /** Int32Array [status, builds, layout, compact]; status: see UNCLAIMED, READY, FAILED (a positive
   *  value is the token of the task building it); builds counts the matrices built for the solve,
   *  the shared one and any private fallback copies (1 when every task shared); layout and compact:
   *  see LAYOUT and COMPACT. */
  state: SharedArrayBuffer;
  distance: SharedArrayBuffer;
  duration: SharedArrayBuffer;
  /**
   * Int32Array: the row of each location (`Matrix.index`), written by the builder when it laid the
   * rows out by `locationOrder` (state word LAYOUT set): the waiters take the builder's layout
   * rather than work it out again, so they cannot disagree with it.
   */
  rows: SharedArrayBuffer;
}

/** The shared matrix as one task sees it. */
export interface SharedMatrixRef extends SharedMatrix {
  /** Unique among the tasks given this matrix, > 0: names the builder in the state word. */
  token: number;
  /** The task's problem has its explicit matrix left out (omitMatrixInput): it can only wait. */
  inputOmitted: boolean;
}

const STATUS = 0;
const BUILDS = 1;
/** 1 when the builder laid the rows out by `locationOrder` (the layout is in `rows`). */
const LAYOUT = 2;
/**
 * 1 when the builder stored the values as 32-bit floats (`compactMatrix`, decided on the builder's
 * thread, which scans an explicit matrix: not the posting thread's event loop), in the first half
 * of each buffer; the buffers are sized for 64-bit floats either way.
 */
const COMPACT = 3;
const UNCLAIMED = 0;
const READY = -1;
const FAILED = -2;

/** How long one Atomics.wait lasts before the waiter looks again (a missed wake-up costs this). */
const WAIT_SLICE_MS = 20;
/** A waiter gives up after this long (a 1000-location haversine build takes about a second). */
export const DEFAULT_MAX_WAIT_MS = 60_000;

export class SharedMatrixError extends Error {
  override name = 'SharedMatrixError';
}

/** Zeroed buffers for `size` locations: 16 size^2 bytes (half of it used when the values are compact). Throws RangeError when too large. */
export function allocateSharedMatrix(size: number): SharedMatrix {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`allocateSharedMatrix: bad size ${size}`);
  const bytes = 8 * size * size;
  return {
    size,
    state: new SharedArrayBuffer(16),
    distance: new SharedArrayBuffer(bytes),
    duration: new SharedArrayBuffer(bytes),
    rows: new SharedArrayBuffer(4 * size),
  };
}

export function sharedMatrixRef(shared: SharedMatrix, token: number, inputOmitted: boolean): SharedMatrixRef {
  if (!Number.isInteger(token) || token <= 0) throw new RangeError(`sharedMatrixRef: the token must be a positive integer (${token})`);
  return { size: shared.size, state: shared.state, distance: shared.distance, duration: shared.duration, rows: shared.rows, token, inputOmitted };
}

/**
 * The same problem without its explicit matrix (the rows empty; the locations' coordinates, which
 * are small, stay): for the tasks that only wait.
 */
export function omitMatrixInput(problem: ProblemInput): ProblemInput {
  const m = problem.matrix;
  if (m.kind !== 'explicit') return problem;
  return { ...problem, matrix: { kind: 'explicit', distance: [], duration: [], ...(m.coordinates === undefined ? {} : { coordinates: m.coordinates }) } };
}

/** How many times the arrays were filled (the posting side's view: 1 when every task shared). */
export function sharedMatrixBuilds(shared: SharedMatrix): number {
  return Atomics.load(new Int32Array(shared.state), BUILDS);
}

export function sharedMatrixReady(shared: SharedMatrix): boolean {
  return Atomics.load(new Int32Array(shared.state), STATUS) === READY;
}

function views(shared: SharedMatrix, index: Int32Array | undefined, compact: boolean): Matrix {
  const n = shared.size * shared.size;
  const m: Matrix = compact
    ? { size: shared.size, distance: new Float32Array(shared.distance, 0, n), duration: new Float32Array(shared.duration, 0, n) }
    : { size: shared.size, distance: new Float64Array(shared.distance, 0, n), duration: new Float64Array(shared.duration, 0, n) };
  if (index !== undefined) m.index = index;
  return m;
}

function markFailed(state: Int32Array, from: number): boolean {
  if (Atomics.compareExchange(state, STATUS, from, FAILED) !== from) return false;
  Atomics.notify(state, STATUS);
  return true;
}

/**
 * The posting side, once a task given `ref` has settled (answered, failed, crashed or was aborted):
 * a build it claimed and never published is marked failed, and so is a build nobody claimed if the
 * task carried the input (it may have been the only task that could). Wakes the waiters.
 */
export function settleSharedTask(ref: SharedMatrixRef): void {
  const state = new Int32Array(ref.state);
  markFailed(state, ref.token);
  if (!ref.inputOmitted) markFailed(state, UNCLAIMED);
}

/**
 * A worker's matrix for its task: builds it when it carries the input and is first, otherwise
 * waits for the builder. Blocks the calling thread while waiting (workers only). A task asked to
 * stop meanwhile still waits, as it would have built its own copy before: it then answers with
 * its construction (the job service counts on a stopped spare answering).
 */
export function obtainSharedMatrix(ref: SharedMatrixRef, input: MatrixInput, options: { maxWaitMs?: number } = {}): Matrix {
  const state = new Int32Array(ref.state);
  if (!ref.inputOmitted && Atomics.compareExchange(state, STATUS, UNCLAIMED, ref.token) === UNCLAIMED) {
    try {
      const layout = locationOrder(input);
      let index: Int32Array | undefined;
      if (layout !== undefined) {
        if (layout.length !== ref.size) throw new RangeError(`the matrix input has ${layout.length} locations, the shared matrix ${ref.size}`);
        index = new Int32Array(ref.rows);
        index.set(layout);
        Atomics.store(state, LAYOUT, 1);
      }
      const compact = compactMatrix(input);
      if (compact) Atomics.store(state, COMPACT, 1);
      const m = buildMatrix(input, views(ref, undefined, compact), index);
      Atomics.add(state, BUILDS, 1);
      Atomics.store(state, STATUS, READY);
      Atomics.notify(state, STATUS);
      return m;
    } catch (error) {
      markFailed(state, ref.token);
      throw error;
    }
  }
  const slices = Math.ceil((options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS) / WAIT_SLICE_MS);
  let status = Atomics.load(state, STATUS);
  for (let i = 0; status >= UNCLAIMED && i < slices; i++) {
    Atomics.wait(state, STATUS, status, WAIT_SLICE_MS);
    status = Atomics.load(state, STATUS);
  }
  if (status === READY) return views(ref, Atomics.load(state, LAYOUT) === 1 ? new Int32Array(ref.rows) : undefined, Atomics.load(state, COMPACT) === 1);
  const why = status === FAILED ? 'its builder failed' : 'it was not ready in time';
  if (ref.inputOmitted) throw new SharedMatrixError(`the shared matrix of this solve was not built (${why}), and this task has no matrix input of its own`);
  // a private copy: the same values, so the same search
  Atomics.add(state, BUILDS, 1);
  return buildMatrix(input, undefined, locationOrder(input));
}
