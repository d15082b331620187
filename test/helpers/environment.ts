/**
 * What a fresh machine may lack, probed once: the suites that need one of these skip with
 * `describe.skipIf`, and the summary reporter names each one missing in the closing line.
 */
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

/** Debian's Chromium, driven by playwright-core (it downloads no browser of its own). */
export const CHROMIUM = '/usr/bin/chromium';

export const REDIS_HOST = '127.0.0.1';
export const REDIS_PORT = 6379;

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/** Whether something accepts a TCP connection at host:port within `timeoutMs`. */
export function reachable(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
