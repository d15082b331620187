/**
 * What the process does with an error nobody caught (a rejected promise nobody awaited, a throw
 * in a timer callback). Operational faults (a busy or full database, a refused connection, a
 * time-out: errors with a system or SQLite `code`, aborts) are logged as one JSON line and the
 * process goes on: the code that met them leaves its work pending and tries again. Anything
 * else is a programming error: logged, then the process exits 1 rather than run on in an unknown
 * state (a supervisor restarts it; accepted work is in the database and resumes).
 *
 * The process's own output is the exception to "operational": when stdout or stderr fails (its
 * reader closed the pipe: a log collector that died, `| head`, a parent that went away), every
 * further line, this policy's included, would fail the same way. Logged as operational, each failed
 * line raised another: the process wrote the same EPIPE line forever at a full core (a cold
 * `solve` whose parent had gone ran for minutes on a 2 s limit). So an error on stdout or stderr
 * ends the process at once, with exit code 1 and nothing written, as Node itself does when nobody
 * listens for it.
 */
export function isOperational(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^(SQLITE_[A-Z_]{1,40}|E[A-Z]{2,30}|UND_ERR_[A-Z_]{1,40})$/.test(code);
}

function line(level: 'error' | 'fatal', msg: string, error: unknown): string {
  const err = error instanceof Error ? { type: error.name, message: error.message, code: (error as { code?: unknown }).code, stack: error.stack } : { message: String(error) };
  return JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, err }) + '\n';
}

let installed = false;

export function installProcessPolicy(): void {
  if (installed) return;
  installed = true;
  const handle = (kind: string) => (error: unknown) => {
    if (isOperational(error)) {
      process.stderr.write(line('error', `${kind} (operational; the process goes on)`, error));
      return;
    }
    process.stderr.write(line('fatal', `${kind} (programming error; exiting)`, error));
    process.exit(1);
  };
  const outputGone = () => process.exit(1);
  process.stdout.on('error', outputGone);
  process.stderr.on('error', outputGone);
  process.on('unhandledRejection', handle('unhandled rejection'));
  process.on('uncaughtException', handle('uncaught exception'));
}
