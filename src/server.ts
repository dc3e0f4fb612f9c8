import type { AddressInfo } from "node:net";
import { isBun } from "./runtime.js";

/**
 * The only HTTP file that branches on the runtime: @hono/node-server under
 * Node, Bun.serve inside the compiled executable.
 */
export interface Listener {
  port: number;
  host: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

type FetchHandler = (req: Request) => Response | Promise<Response>;

export async function listen(fetch: FetchHandler, opts: { host: string; port: number; maxBodyBytes?: number }): Promise<Listener> {
  if (isBun) {
    const server = Bun.serve({
      fetch,
      port: opts.port,
      hostname: opts.host,
      // Uploads are size-checked while streaming; this only bounds what Bun will accept at all.
      maxRequestBodySize: opts.maxBodyBytes ?? 1024 * 1024 * 1024,
      idleTimeout: 120,
    });
    return { port: server.port, host: opts.host, close: () => server.stop(false) };
  }
  const { serve } = await import("@hono/node-server");
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: opts.port, hostname: opts.host }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        host: opts.host,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Keep-alive sockets with no request in flight would otherwise hold close() open.
            (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
          }),
      });
    });
    server.once("error", reject);
  });
}
