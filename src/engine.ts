/**
 * `delivery-planner/engine`: the routing engine and the planning job layer without the service
 * (no HTTP server, no SQLite): solve, solveParallel, the worker pool, JobService on the in-memory
 * store or a store of your own. Loads no native module.
 */
export type * from './model/input.js';
// planning jobs and the solver pool
export { JobService, defaultBudgetSec, type JobServiceOptions, type SolveRunner } from './jobs/service.js';
export { MemoryPlanningStore } from './jobs/memory-store.js';
export { EventBus, type PlannerEvent, type EventName, type EventPayloads } from './jobs/events.js';
export { PlanningInputError, JobServiceClosedError, MAX_ORDERS_PER_JOB, problemDetail, type PlanningProblem } from './jobs/errors.js';
export { planningRequestSchema, type PlanningRequest } from './contract/planning.js';
export { toJobView, type JobView } from './jobs/view.js';
export { haversineProvider, type MatrixProvider } from './jobs/problem.js';
export { DayAxis } from './jobs/time.js';
export {
  OrdersNotNewError,
  VehicleBusyError,
  type PlanningStore,
  type JobStore,
  type PlanningDataStore,
  type JobRecord,
  type JobInput,
  type JobResult,
  type JobStatus,
  type Company,
  type PlanningOrder,
  type PlanningVehicle,
  type Warehouse,
  type NewRoute,
  type NewStop,
  type StopType,
  type OrderStatus,
  type OrderStatusChange,
  type PlanCommit,
} from './jobs/ports.js';
export { SolverPool, PoolTaskError, defaultWorkerFile, type SolverPoolOptions, type PoolFailure } from './pool/pool.js';
export type { SolveTask } from './pool/messages.js';
export { solve } from './solver/solve.js';
export type {
  MatrixInput,
  DepotInput,
  VehicleInput,
  OrderInput,
  ProblemInput,
  Objective,
  SolveOptions,
  UnassignedReason,
  StopResult,
  ReloadResult,
  RouteResult,
  SolveResult,
} from './model/input.js';
export { problemSchema, parseProblem, ProblemValidationError } from './schema/problem.js';
export { solveParallel } from './pool/parallel.js';
