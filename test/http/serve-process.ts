import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliArgs } from '../helpers/cli-command.js';
import { checkFetch } from '../helpers/openapi-conformance.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Served {
  proc: ChildProcess;
  url: string;
  stdout: string[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the real `delivery-planner serve` (built or from source: `cliArgs`) and waits for its listening line. */
export function startServe(args: string[], nodeArgs: string[] = []): Promise<Served> {
  const proc = spawn(process.execPath, [...nodeArgs, ...cliArgs(), 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  let err = '';
  let buffer = '';
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString('utf8');
    if (err.length > 1_000_000) err = err.slice(-500_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        stdout.push(line);
        const m = /^listening on (http:\/\/\S+)$/.exec(line);
        if (m) resolve({ proc, url: m[1]!, stdout, stderr: () => err, exited });
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`serve exited (${code ?? signal}) before listening: ${err.slice(-2000)}`)));
  });
}

export async function api(served: Served, key: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${served.url}/api/public/v1${path}`, {
    method,
    headers: { authorization: `Api-Key ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // checked against the OpenAPI document too (test/helpers/openapi-conformance.ts)
  return checkFetch(method, `/api/public/v1${path}`, r, body);
}
