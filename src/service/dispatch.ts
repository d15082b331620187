/**
 * The dispatch use cases (docs/contract/operations.md, Dispatch API): assign a vehicle to a route, start a
 * route, set a stop's status (the order follows, its history grows, `order.status_changed` is
 * announced inside the transaction so its webhook row commits with it, the route completes when
 * every order stop is final), record vehicle positions. Company-scoped; each change is one
 * transaction.
 *
 * Transitions (decided here; the contract leaves them open):
 * - Route: planned -> active (start, or the first stop status reported on a planned route);
 *   active -> completed when no order stop is left open. A vehicle can be assigned to a planned or
 *   active route; completed, archived and cancelled routes are closed to every change. A vehicle
 *   already assigned to another route of the date is refused (409); a vehicle only planned for
 *   another route of the date (not yet assigned) is taken, and that route gets this route's
 *   planned vehicle instead (a swap), so a vehicle never holds two routes of one date.
 * - Stop: pending -> in_progress | visited | confirmed | rejected | skipped;
 *   in_progress -> visited | confirmed | rejected | skipped; visited -> confirmed | rejected | skipped.
 *   confirmed, rejected and skipped are final. Sending the status a stop already has changes
 *   nothing (200, no history entry, no event): a driver's app may retry. Depot stops take
 *   in_progress, visited and skipped only.
 * - Order (order stops): the order takes the stop's status except in_progress (the order stays
 *   in_route): in_route -> visited | confirmed | rejected | skipped, visited -> the final ones.
 * - Times: in_progress, visited, confirmed and rejected set the stop's actual_arrival_at (when not
 *   yet set); confirmed, rejected and skipped set actual_departure_at. All take `at` (default: now).
 */
import type { StorePort } from '../store/port.js';
import { FINAL_STOP_STATUSES, type NewPosition, type PositionRow, type RouteRow, type StopRow, type StopStatus } from '../store/types.js';
import type { OrderStatus } from '../store/types.js';
import type { OrderService } from './orders.js';
import { systemClock, type Clock } from './time.js';
import { DEFAULT_QUOTAS, positionsExceeded } from './quota.js';
import type { SettableStopStatus } from '../contract/driver.js';

/** Why a dispatch change was refused: `not_found` (404) or `conflict` (409, `detail` says why). */
export class DispatchError extends Error {
  override readonly name = 'DispatchError';
  constructor(
    readonly kind: 'not_found' | 'conflict',
    readonly detail: string,
  ) {
    super(detail);
  }
}

const NEXT: Record<StopStatus, readonly StopStatus[]> = {
  pending: ['in_progress', 'visited', 'confirmed', 'rejected', 'skipped'],
  in_progress: ['visited', 'confirmed', 'rejected', 'skipped'],
  visited: ['confirmed', 'rejected', 'skipped'],
  confirmed: [],
  rejected: [],
  skipped: [],
};

const OPEN_ROUTE = ['planned', 'active'] as const;

export interface StopChange {
  stop: StopRow;
  route: RouteRow;
  /** false when the stop already had the status (nothing written). */
  changed: boolean;
}

const notFound = () => new DispatchError('not_found', 'Not found.');

export class DispatchService {
  private readonly clock: Clock;

  constructor(
    private readonly store: StorePort,
    private readonly orders: OrderService,
    clock?: Clock,
    /** Positions one vehicle may send a minute (default 60). */
    private readonly maxPositionsPerMinute = DEFAULT_QUOTAS.maxPositionsPerMinute,
  ) {
    this.clock = clock ?? systemClock;
  }

  now(): string {
    return this.clock().toISOString();
  }

  assignVehicle(companyId: number, routeId: number, vehicleId: number): Promise<RouteRow> {
    const at = this.now();
    return this.store.transaction(async (tx) => {
      const route = await tx.routes.get(companyId, routeId);
      if (!route) throw notFound();
      const vehicle = await tx.vehicles.get(companyId, vehicleId);
      if (!vehicle) throw notFound();
      if (!(OPEN_ROUTE as readonly string[]).includes(route.status)) {
        throw new DispatchError('conflict', `Route ${route.id} is ${route.status}; a vehicle can be assigned only to a planned or active route.`);
      }
      if (!vehicle.active) throw new DispatchError('conflict', `Vehicle ${vehicle.id} is inactive.`);
      const holder = await tx.routes.routeHoldingVehicle(companyId, vehicle.id, route.date, route.id);
      if (holder && holder.assigned_vehicle_id === vehicle.id) {
        throw new DispatchError('conflict', `Vehicle ${vehicle.id} is already assigned to route ${holder.id} on ${route.date}.`);
      }
      // The vehicle was only planned for another route (the API does not show which vehicle a
      // route was planned for): the two routes swap their planned vehicles.
      if (holder) await tx.routes.setPlannedVehicle(holder.id, route.vehicle_id, at);
      await tx.routes.assignVehicle(route.id, vehicle.id, at);
      return (await tx.routes.get(companyId, route.id))!;
    });
  }

  startRoute(companyId: number, routeId: number, at: string = this.now()): Promise<RouteRow> {
    return this.store.transaction(async (tx) => {
      const route = await tx.routes.get(companyId, routeId);
      if (!route) throw notFound();
      if (route.status === 'active') throw new DispatchError('conflict', `Route ${route.id} is already active.`);
      if (route.status !== 'planned') throw new DispatchError('conflict', `Route ${route.id} is ${route.status} and cannot be started.`);
      await tx.routes.setStatus(route.id, 'active', at, { actual_start_at: at });
      return (await tx.routes.get(companyId, route.id))!;
    });
  }

  async setStopStatus(companyId: number, stopId: number, status: SettableStopStatus, at: string = this.now()): Promise<StopChange> {
    let announce: (() => void) | undefined;
    const change = await this.store.transaction(async (tx): Promise<StopChange> => {
      const found = await tx.routes.getStop(companyId, stopId);
      if (!found) throw notFound();
      const { stop, route } = found;
      if (!(OPEN_ROUTE as readonly string[]).includes(route.status)) {
        throw new DispatchError('conflict', `Route ${route.id} is ${route.status}; its stops can no longer change.`);
      }
      if (stop.status === status) return { stop, route, changed: false };
      if (stop.stop_type !== 'order' && (status === 'confirmed' || status === 'rejected')) {
        throw new DispatchError('conflict', `Stop ${stop.id} is a ${stop.stop_type} stop; only order stops can be confirmed or rejected.`);
      }
      if (!NEXT[stop.status].includes(status)) {
        throw new DispatchError(
          'conflict',
          FINAL_STOP_STATUSES.includes(stop.status)
            ? `Stop ${stop.id} is already ${stop.status}, a final status; it can no longer change.`
            : `Stop ${stop.id} cannot go back from ${stop.status} to ${status}.`,
        );
      }
      const final = FINAL_STOP_STATUSES.includes(status);
      const arrives = status !== 'skipped';
      await tx.routes.updateStop(stop.id, {
        status,
        actual_arrival_at: stop.actual_arrival_at ?? (arrives ? at : null),
        actual_departure_at: final ? at : stop.actual_departure_at,
      });
      if (stop.stop_type === 'order' && stop.order_id !== null && status !== 'in_progress') {
        const from: OrderStatus[] = status === 'visited' ? ['in_route'] : ['in_route', 'visited'];
        const moved = await tx.orders.transition(companyId, stop.order_id, from, status, at);
        if (!moved) throw new DispatchError('conflict', `The order of stop ${stop.id} no longer exists.`);
        if (!moved.changed) {
          throw new DispatchError('conflict', `Order ${stop.order_id} is ${moved.previous}; it cannot become ${status}.`);
        }
        // Written inside the transaction: the webhook outbox row commits with the change.
        await this.orders.publishStatusChanged(tx, companyId, moved.order, moved.previous, at);
        announce = () => this.orders.announceStatusChanged(companyId, moved.order, moved.previous, at);
      }
      if (route.status === 'planned') await tx.routes.setStatus(route.id, 'active', at, { actual_start_at: at });
      if (final && (await tx.routes.openOrderStops(route.id)) === 0) {
        await tx.routes.setStatus(route.id, 'completed', at, { actual_end_at: at });
      }
      return {
        stop: (await tx.routes.getStop(companyId, stop.id))!.stop,
        route: (await tx.routes.get(companyId, route.id))!,
        changed: true,
      };
    });
    announce?.();
    return change;
  }

  async addPositions(companyId: number, vehicleId: number, positions: NewPosition[]): Promise<PositionRow[]> {
    const vehicle = await this.store.vehicles.get(companyId, vehicleId);
    if (!vehicle) throw notFound();
    const now = this.clock();
    // counted by the server's receipt times over the last minute, across every API process
    const recent = await this.store.routes.countPositionsSince(vehicle.id, new Date(now.getTime() - 60_000).toISOString());
    if (recent + positions.length > this.maxPositionsPerMinute) throw positionsExceeded(this.maxPositionsPerMinute);
    return this.store.routes.addPositions(companyId, vehicle.id, positions, now.toISOString());
  }
}
