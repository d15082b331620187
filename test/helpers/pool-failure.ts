/** The PoolTaskError a task failed with (the test fails when the task succeeds or throws anything else). */
import { expect } from 'vitest';
import { PoolTaskError } from '../../src/pool/pool.js';

export async function failure(promise: Promise<unknown>): Promise<PoolTaskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PoolTaskError);
    return error as PoolTaskError;
  }
  throw new Error('expected the task to fail');
}
