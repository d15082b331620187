/**
 * `GET /healthz` and `GET /readyz` (docs/contract/operations.md, "Health, readiness, metrics and request ids"):
 * alive, and ready to take traffic. Neither needs a key nor counts against a request limit (the
 * routes declare no scope, so auth and the limits pass them by). On SIGTERM the process marks itself
 * draining first, so /readyz turns 503 before anything stops.
 */
import type { FastifyInstance } from 'fastify';

import type { Readiness } from '../service/ops.js';

export type { Readiness };

export interface ReadinessCheck {
  /** The process is shutting down. */
  draining: boolean;
  /** A check of its parts (store, migrations, solver threads); called on every /readyz. */
  check(): Promise<Readiness>;
  /** /readyz was asked at least once (a balancer watches it: serve leaves it time to see a 503). */
  probed: boolean;
}

/** How long one /readyz check may take before it counts as not ready. */
const CHECK_TIMEOUT_MS = 2_000;

export function readiness(check: () => Promise<Readiness>): ReadinessCheck {
  return { draining: false, probed: false, check };
}

export function registerHealthRoutes(app: FastifyInstance, state: ReadinessCheck): void {
  app.get('/healthz', async (_request, reply) => reply.send({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    state.probed = true;
    const answer = state.draining ? ({ ready: false, reason: 'shutting down' } as const) : await withTimeout(state.check());
    if (answer.ready) return reply.send({ status: 'ready' });
    return reply.code(503).send({ status: 'not_ready', reason: answer.reason });
  });
}

async function withTimeout(p: Promise<Readiness>): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: `the readiness check took over ${CHECK_TIMEOUT_MS} ms` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p.catch((err: unknown) => ({ ready: false as const, reason: reasonOf(err) })), late]);
  } finally {
    clearTimeout(timer);
  }
}

function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `check failed: ${message.split('\n')[0]!.slice(0, 200)}`;
}

/** After SIGTERM, how long /readyz answers 503 before the port closes, when something watched it. */
export const NOT_READY_GRACE_MS = 1_000;

/**
 * Marks the process draining (/readyz turns 503) and, if /readyz was ever asked (a balancer or an
 * orchestrator watches it), waits NOT_READY_GRACE_MS so the watcher sees the 503 before the port
 * closes. A process nobody probes stops at once.
 */
export async function beginDraining(state: ReadinessCheck): Promise<void> {
  state.draining = true;
  if (state.probed) await new Promise((resolve) => setTimeout(resolve, NOT_READY_GRACE_MS));
}
