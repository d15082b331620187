/**
 * The only place that listens: binds a built app (src/http/app.ts) to a host and port, and closes
 * it gracefully. `delivery-planner serve` (src/cli/serve.ts) calls it; tests build the app and use
 * `app.inject()` without a socket.
 */
import type { FastifyInstance } from 'fastify';

export interface Listening {
  /** `http://HOST:PORT` with the port actually bound (port 0 picks one). */
  base: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (their answers close their connections),
   *  cuts a connection still busy after `forceAfterMs`, and resolves when the app is closed. */
  close(forceAfterMs?: number): Promise<void>;
}

export async function listen(app: FastifyInstance, host: string, port: number): Promise<Listening> {
  // Once shutdown starts, an in-flight answer closes its connection, so a client's keep-alive
  // socket cannot hold the exit until the keep-alive time-out.
  let closing = false;
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  try {
    await app.listen({ host, port });
  } catch (err) {
    throw new Error(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
  }
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    base: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    async close(forceAfterMs = 10_000) {
      closing = true;
      // last resort for a client that keeps a connection busy
      setTimeout(() => app.server.closeAllConnections(), forceAfterMs).unref();
      await app.close();
    },
  };
}
