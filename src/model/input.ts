/**
 * The problem and result contract of the engine: what `solve(problem, options)` takes and gives.
 *
 * Plain JSON-shaped objects, so the same format serves the library, the CLI (`--format json`),
 * the worker-thread pool (structured clone) and the planning-job layer. The zod schema in
 * `src/schema` validates this shape at the boundary; the core trusts it afterwards.
 *
 * Units are the problem's own, but must be consistent: times, shifts, windows, service times and
 * matrix durations on one time axis (the service uses seconds since local midnight of the
 * delivery date); distances in one unit (the service uses metres). Solomon files use their
 * abstract units (travel time = distance).
 */

/** How travel distances and durations between locations are obtained. */
export type MatrixInput =
  /** Planar coordinates; distance is Euclidean, duration = distance / speed (speed defaults to 1). */
  | {
      kind: 'euclidean';
      coordinates: Array<[x: number, y: number]>;
      /** `trunc1`: every arc floor(10 d) / 10, used for cost and time (DIMACS convention). */
      rounding?: 'none' | 'trunc1';
      speed?: number;
    }
  /** Geographic coordinates; great-circle distance in metres times a detour factor, at a speed. */
  | {
      kind: 'haversine';
      coordinates: Array<[lat: number, lon: number]>;
      /**
       * A fixed average speed in km/h (time proportional to length); absent: the default travel
       * curve of model/travel-time.ts (town speed on short hops, road speed on long ones).
       * Durations come out in seconds.
       */
      speedKmh?: number;
      /** Multiplier on the great-circle distance (roads are not straight); default 1.3. */
      detourFactor?: number;
      /** Multiplier on every travel time (a company's speed factor); default 1. */
      timeFactor?: number;
    }
  /** Given square matrices; `null` means there is no road from row to column. */
  | {
      kind: 'explicit';
      distance: Array<Array<number | null>>;
      duration: Array<Array<number | null>>;
      /**
       * Where the locations are, `[lat, lon]`, one per row (optional). Never used for costs or
       * times; only to cut a large day into parts for threads that search it together (sectors,
       * halves by depot: solver/decompose.ts). Without it such a day runs as independent seeds.
       */
      coordinates?: Array<[lat: number, lon: number]>;
    };

export interface DepotInput {
  id: string;
  /** Index into the matrix's locations. */
  location: number;
}

export interface VehicleInput {
  id: string;
  capacity: { weight: number; volume: number };
  /** [earliest departure from the start depot, latest arrival at the end depot]. */
  shift: [start: number, end: number];
  startDepot: string;
  endDepot: string;
  /** Limit on the route's total distance. */
  maxDistance?: number;
  /** Limit on the route's duration, from leaving the start depot to arriving at the end depot. */
  maxDuration?: number;
  /** Limit on the number of orders on the route. */
  maxOrders?: number;
  /** Features this vehicle has (for example `refrigerated`). */
  features?: string[];
  /**
   * Trips the vehicle may make (default 1): between two trips it goes back to its start depot and
   * loads again. Capacity holds per trip; shift, maxDistance, maxDuration, maxOrders for the route.
   */
  maxTrips?: number;
  /** Time spent at the start depot for each reload between trips (default 0), on the time axis. */
  reloadTime?: number;
  /**
   * Breaks the driver must take when the route is used: each lasts `duration` and starts inside
   * its `window`, wherever the driver is then (after a stop's service, or on the road). A day in
   * progress lists only the breaks not taken yet.
   */
  breaks?: BreakInput[];
  /** A day in progress: what the route has done so far and where the rest of it starts. */
  progress?: VehicleProgressInput;
}

export interface BreakInput {
  /** A name echoed in the route's `breaks` (optional). */
  id?: string;
  /** [earliest, latest] start of the break. */
  window: [start: number, end: number];
  /** Its length, on the time axis. */
  duration: number;
}

/** A stop already served or being served: it stays where it is, with these times. */
export interface FixedStopInput {
  /** An order id of its own (not one of `orders`: a fixed stop is not planned again). */
  orderId: string;
  location: number;
  arrival: number;
  start: number;
  departure: number;
}

export interface VehicleProgressInput {
  /** The fixed prefix of the route, in route order (may be empty). */
  fixedStops: FixedStopInput[];
  /**
   * Where and when the rest of the route starts: after the last fixed stop, or at the last
   * reported position (a matrix location), never before the problem's `now`.
   */
  start: { location: number; time: number };
  /**
   * When the route left its start depot: the route's start, from which maxDuration counts.
   * Default: the first fixed stop's arrival less the drive to it, or `start.time`.
   */
  departedAt?: number;
}

export interface OrderInput {
  id: string;
  location: number;
  weight: number;
  volume: number;
  serviceTime: number;
  /** [earliest, latest] start of service; absent means any time within the shift. */
  timeWindow?: [start: number, end: number];
  /** Every one of these must be among the vehicle's features. */
  requiredFeatures?: string[];
  /**
   * A day in progress: the vehicle whose route the order is on now. Such a kept order may move to
   * another route but is never left unassigned while any route can take it (see docs/engine.md).
   */
  currentVehicle?: string;
  /**
   * A day in progress, with `currentVehicle`: the share of `keptMoveCost` that moving this kept
   * order to another vehicle costs, in [0, 1] (default 1; in steps of 1/64, rounded). 0: it moves
   * freely (its parcel is not loaded yet), but it is still kept (never dropped, warm-started).
   */
  keptMoveWeight?: number;
}

export interface ProblemInput {
  name?: string;
  matrix: MatrixInput;
  depots: DepotInput[];
  vehicles: VehicleInput[];
  orders: OrderInput[];
  /** A day in progress: no vehicle leaves (or goes on from its `progress.start`) before this time. */
  now?: number;
  /**
   * A day in progress: what moving a kept order to another vehicle costs, in the objective's
   * units (metres of the distance objective), per order (default 0). A little keeps a re-plan
   * from reshuffling the drivers' lists for gains smaller than that (see docs/engine.md).
   */
  keptMoveCost?: number;
}

export type Objective = 'distance' | 'duration' | 'vehicles';

export interface SolveOptions {
  /** Wall-clock limit in seconds; hard: the best solution so far comes back at the deadline. */
  timeLimit?: number;
  /**
   * Iteration budget; with a seed it makes runs reproducible regardless of machine speed. Without
   * either `timeLimit` or `iterations`, `solve` runs 1,000 iterations.
   */
  iterations?: number;
  seed?: number;
  /** `distance` (default), `duration`, or `vehicles` (fewest vehicles first, then distance). */
  objective?: Objective;
  /** Validate the problem with the zod schema first (default true); skip only for trusted input. */
  validate?: boolean;
  /**
   * Worker threads for `solveParallel` (CLI `--threads`): N searches with different seeds that
   * share their best solution between epochs. `solve` itself always runs on the calling thread.
   */
  threads?: number;
  /** A warm start: routes by vehicle id. Infeasible routes are dropped and their orders reinserted. */
  initialRoutes?: Array<{
    vehicleId: string;
    orderIds: string[];
    /** Reloads: for each, how many of `orderIds` come before it (a route result's `reloads[].after`). */
    reloadsAfter?: number[];
  }>;
  /** Which share [from, to] of an overall search this call is (drives the cooling schedule). */
  schedule?: { from: number; to: number };
  /**
   * Without a warm start: 'regret' starts from regret insertion of every order into an empty
   * fleet alone, never abandoned for lack of time; default: savings too, and the better of the two
   * (the regret start is dropped when it would take more than 30 % of the budget).
   * `solveParallel` gives it to its second thread in the first epoch from 600 orders on.
   */
  start?: 'regret';
  /**
   * Share of this call's budget (0-1) spent first on serving every order with fewer routes
   * (src/search/fleet.ts) before the search for the objective. Default 0.5 under the vehicles
   * objective from 600 orders on, else 0; `solveParallel(..., { fleet: true })` sets it in its
   * fleet epoch.
   */
  fleetFirst?: number;
  /**
   * The search opens no route beyond those of its start (warm start or fleet stage) and runs
   * without penalties; orders the routes cannot take still get one when the search ends. Implied
   * after a fleet stage under the vehicles objective; `solveParallel(..., { fleet: true })` sets it
   * on its capped thread, so the distance search cannot trade the routes saved back.
   */
  keepFleet?: boolean;
}

export type UnassignedReason =
  | 'capacity'
  | 'time_window'
  | 'max_distance'
  | 'max_duration'
  | 'max_orders'
  | 'requirements'
  | 'no_vehicle'
  | 'unroutable';

export interface StopResult {
  orderId: string;
  location: number;
  /** Arrival at the order's location. */
  arrival: number;
  /** Start of service: max(arrival, window start). */
  start: number;
  /** start + service time. */
  departure: number;
  /** Load on board after this stop (deliveries: what is still to be delivered). */
  load: { weight: number; volume: number };
  /** Distance travelled from the start depot up to this stop. */
  distance: number;
}

/** A return to the start depot between two trips (vehicles with `maxTrips` > 1). */
export interface ReloadResult {
  /** The depot: the vehicle's start depot. */
  depotId: string;
  location: number;
  /** How many order stops of the route come before this reload. */
  after: number;
  arrival: number;
  /** arrival + the vehicle's reload time. */
  departure: number;
  /** Load on board after reloading: what the next trip delivers. */
  load: { weight: number; volume: number };
  /** Distance travelled from the start depot up to this stop. */
  distance: number;
}

export interface RouteResult {
  vehicleId: string;
  /** Departure from the start depot, chosen so that the route wastes no time waiting needlessly. */
  start: number;
  /** Arrival at the end depot. */
  end: number;
  stops: StopResult[];
  distance: number;
  /** end - start. */
  duration: number;
  /** Total delivered load. */
  load: { weight: number; volume: number };
  /**
   * Reload stops, in route order (present only when the route makes more than one trip). With
   * reloads, `load` of a stop is what is still on board for its own trip, and the route's first
   * trip leaves the depot with the load of the order stops before the first reload.
   */
  reloads?: ReloadResult[];
  /**
   * The driver's breaks (vehicles with `breaks`), in time order: each taken after `after` stops of
   * `stops` (after that stop's service or on the road to the next stop).
   */
  breaks?: BreakResult[];
  /** A day in progress: how many of `stops` are the vehicle's fixed stops (copied as given). */
  fixed?: number;
}

export interface BreakResult {
  id?: string;
  /** How many stops of the route come before it. */
  after: number;
  start: number;
  /** start + the break's duration. */
  end: number;
}

export interface SolveResult {
  routes: RouteResult[];
  distance: number;
  duration: number;
  vehicles: number;
  unassigned: Array<{ orderId: string; reason: UnassignedReason }>;
  stats: { elapsedMs: number; iterations: number };
}
