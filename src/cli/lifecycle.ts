/**
 * How a long-running command (`serve`, `worker`) ends: on SIGTERM or SIGINT, once, it runs its
 * shutdown and resolves with the exit code. Written once for both commands.
 *
 * - The handlers are installed before the ready line is printed: whoever waits for that line may
 *   signal at once. Printed before them, a SIGTERM sent within a few ms could land while the
 *   process sat descheduled between the write and `process.on` (a loaded machine), and the
 *   default action would kill it.
 * - The handlers stay until the process exits: a second signal while the last handles close is
 *   ignored, never the default action.
 * - `DP_EXIT_WITH_PARENT=1` in the environment: the process also shuts down (as on SIGTERM) when
 *   the process that started it is gone. The test suite sets it, so that a killed test run leaves
 *   no server behind; a supervisor that owns its children may set it too.
 */

export interface Lifecycle {
  /** Called once with the reason (the signal's name, or `parent exited`); its rejection is logged and exits 1. */
  shutdown(reason: string): Promise<void>;
  /** Called after `shutdown`, even when it failed (closing the store). */
  finally?(): Promise<void>;
  onError(error: unknown): void;
  /** Printed on stdout (one line each) once the handlers are in place. */
  readyLines: string[];
  /** How often the parent is looked for, in ms (default 1000). */
  parentCheckMs?: number;
}

export function runUntilSignal(life: Lifecycle): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    let watch: NodeJS.Timeout | undefined;
    const stop = (reason: string) => {
      if (stopping) return;
      stopping = true;
      if (watch) clearInterval(watch);
      void (async () => {
        let code = 0;
        try {
          await life.shutdown(reason);
        } catch (error) {
          life.onError(error);
          code = 1;
        } finally {
          await life.finally?.().catch(() => undefined);
        }
        resolve(code);
      })();
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    if (process.env.DP_EXIT_WITH_PARENT === '1') {
      const parent = process.ppid;
      watch = setInterval(() => {
        if (!alive(parent)) stop('parent exited');
      }, life.parentCheckMs ?? 1000);
      watch.unref();
    }
    for (const line of life.readyLines) process.stdout.write(line + '\n');
  });
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  if (pid <= 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
