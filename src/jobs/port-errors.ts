/**
 * The errors a planning store's writes throw when a rule of the commit is not met (src/jobs/commit.ts
 * holds the rules): nothing was written in each case. Re-exported by ports.ts, the port's one import.
 */
import type { OrderStatus } from './ports.js';

/** A re-plan's commit found the day changed since it was read (a stop status written, a route
 *  started, completed or added); nothing was written: it computes again or fails. */
export class StopsChangedError extends Error {
  override readonly name = 'StopsChangedError';
  constructor(
    readonly stopIds: number[],
    readonly routesChanged = false,
  ) {
    super(`The day changed while it was being re-planned: stops ${stopIds.join(', ') || '(none)'}${routesChanged ? ', routes added or closed' : ''}.`);
  }
}

/**
 * A write by a process that no longer holds the job's lease (another process took the job over,
 * or it is finished already); nothing was written. The work of the stale process is dropped.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(readonly jobId: number) {
    super(`Planning job ${jobId} is no longer leased to this process; nothing was written.`);
  }
}

/** commitPlan found orders that are no longer `new`; nothing was written. */
export class OrdersNotNewError extends Error {
  override readonly name = 'OrdersNotNewError';
  constructor(readonly orders: Array<{ id: number; status: OrderStatus }>) {
    super(`Orders not in status new: ${orders.map((o) => `${o.id} (${o.status})`).join(', ')}.`);
  }
}

/** commitPlan found placed orders changed since the job read them (an edit, a geocode); nothing
 *  was written: the job plans again from the fresh data, or fails naming them. */
export class OrdersChangedError extends Error {
  override readonly name = 'OrdersChangedError';
  constructor(readonly orderIds: number[]) {
    super(`Orders changed since they were read: ${orderIds.join(', ')}.`);
  }
}

/** commitPlan found a vehicle that got a route on the date meanwhile; nothing was written. */
export class VehicleBusyError extends Error {
  override readonly name = 'VehicleBusyError';
  constructor(readonly vehicles: Array<{ id: number; date: string }>) {
    super(`Vehicles already have a route on the date: ${vehicles.map((v) => `${v.id} (${v.date})`).join(', ')}.`);
  }
}

/** createJob found the company at its cap of queued plus running jobs; nothing was written. */
export class TooManyJobsError extends Error {
  override readonly name = 'TooManyJobsError';
  constructor(readonly limit: number) {
    super(
      `This company already has ${limit} planning job${limit === 1 ? '' : 's'} queued or running, the most it may have at once. Start this job when one of them has finished.`,
    );
  }
}

/** createJob found the key already used, within the window, with the same request: that job stands. */
export class IdempotentReplayError extends Error {
  override readonly name = 'IdempotentReplayError';
  constructor(readonly jobId: number) {
    super(`Idempotency-Key already used for job ${jobId}.`);
  }
}

/** The key was used within the window with a different request; nothing was written. */
export class IdempotencyKeyReusedError extends Error {
  override readonly name = 'IdempotencyKeyReusedError';
  constructor() {
    super('This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.');
  }
}
