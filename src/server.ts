import type { Server as HttpServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { isBun } from "./runtime.js";
import { AppError, type ErrorCode } from "./errors.js";

/**
 * The only HTTP file that branches on the runtime: @hono/node-server under
 * Node, Bun.serve inside the compiled executable.
 */
export interface Listener {
  port: number;
  host: string;
  /**
   * Stops accepting and lets in-flight requests finish; after the grace period
   * every connection still open (a client that stopped sending mid-body, an
   * idle keep-alive) is closed, so a stop always completes.
   */
  close(): Promise<void>;
}

type FetchHandler = (req: Request) => Response | Promise<Response>;

/** How long a stop waits for in-flight requests before closing their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

export async function listen(fetch: FetchHandler, opts: { host: string; port: number; maxBodyBytes?: number; shutdownGraceMs?: number }): Promise<Listener> {
  const grace = opts.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
  if (isBun) {
    const server = Bun.serve({
      fetch,
      port: opts.port,
      hostname: opts.host,
      // Uploads are size-checked while streaming; this only bounds what Bun will accept at all.
      maxRequestBodySize: opts.maxBodyBytes ?? 1024 * 1024 * 1024,
      idleTimeout: 120,
      // The app answers its own errors; this only catches what escapes it, in the same JSON shape.
      error: () => Response.json(new AppError("internal_error", "unexpected server error; safe to retry with backoff").toBody(), { status: 500 }),
    });
    return {
      port: server.port ?? opts.port,
      host: opts.host,
      close: async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        // stop(true) closes the sockets at once but its promise can wait on handlers that never settle: not awaited.
        const forced = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            void server.stop(true).catch(() => undefined);
            resolve();
          }, grace);
        });
        await Promise.race([server.stop(false), forced]);
        clearTimeout(timer);
      },
    };
  }
  const { serve } = await import("@hono/node-server");
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: opts.port, hostname: opts.host }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        host: opts.host,
        close: () =>
          new Promise<void>((done) => {
            const timer = setTimeout(() => server.closeAllConnections(), grace);
            server.close(() => {
              clearTimeout(timer);
              done();
            });
            // Keep-alive sockets with no request in flight would otherwise hold close() open.
            server.closeIdleConnections();
          }),
      });
    }) as HttpServer;
    server.on("clientError", answerClientError);
    server.once("error", reject);
  });
}

/**
 * Node's parser refuses some requests before our app sees them (unknown method,
 * oversized headers, broken framing, duplicate Content-Length); its default
 * answer has no body. The same refusals get the API's JSON error shape here.
 * (Bun answers those itself and cannot be hooked: README "Known limits".)
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? ["headers_too_large", "the request headers are too large"]
      : err.code === "HPE_INVALID_METHOD"
        ? ["method_not_allowed", "the request method is not supported"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? ["request_timeout", "the request was not received in time"]
          : ["bad_request", "malformed HTTP request"];
  const e = new AppError(code, message);
  const body = JSON.stringify(e.toBody());
  const extra = code === "method_not_allowed" ? "Allow: GET, HEAD, POST\r\n" : "";
  socket.end(
    `HTTP/1.1 ${e.status} ${REASONS[code] ?? "Bad Request"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

const REASONS: Partial<Record<ErrorCode, string>> = {
  bad_request: "Bad Request",
  method_not_allowed: "Method Not Allowed",
  request_timeout: "Request Timeout",
  headers_too_large: "Request Header Fields Too Large",
};
