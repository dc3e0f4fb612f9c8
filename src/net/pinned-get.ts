import net from "node:net";
import tls from "node:tls";

/**
 * An HTTP/1.1 GET sent to one given IP address, for a URL whose host name was
 * already resolved and checked: the connection goes to exactly that address
 * (no second DNS lookup that could answer differently), while the Host header,
 * TLS SNI and certificate check use the URL's host name.
 *
 * Why not http.request with a `lookup` hook: the compiled executable runs on
 * Bun, whose https client then checks the certificate against the IP address
 * and rejects every valid certificate. Bun's tls.connect honours `servername`,
 * so the request is written over a socket we open ourselves. Only what a
 * recording download needs: GET, no keep-alive, identity encoding, bodies
 * framed by Content-Length, chunked or connection close.
 */
export interface PinnedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body, de-chunked. Ends with an error when the connection breaks early. */
  body: AsyncIterable<Uint8Array>;
  /** Closes the connection (an unread body is abandoned). */
  destroy(): void;
}

export interface PinnedGetOptions {
  /** The checked address to connect to. */
  address: string;
  headers: Record<string, string>;
  /** Aborting destroys the connection: a pending promise rejects, a body being read ends with an error. */
  signal: AbortSignal;
}

const MAX_HEAD_BYTES = 64 * 1024;

export class HttpProtocolError extends Error {
  readonly code = "EHTTPPROTOCOL";
}

export function pinnedGet(url: URL, opts: PinnedGetOptions): Promise<PinnedResponse> {
  const https = url.protocol === "https:";
  const port = Number(url.port || (https ? 443 : 80));
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const socket: net.Socket = https
    ? // An IP literal URL has no name to send as SNI; the certificate is then checked against the address.
      tls.connect({ host: opts.address, port, servername: net.isIP(hostname) ? undefined : hostname, ALPNProtocols: ["http/1.1"] })
    : net.connect({ host: opts.address, port });
  const request =
    `GET ${url.pathname}${url.search} HTTP/1.1\r\n` +
    `Host: ${url.host}\r\n` +
    Object.entries(opts.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("") +
    "Connection: close\r\n\r\n";
  // Errors reach the caller through the reads; this keeps one arriving after the last read from going unhandled.
  socket.on("error", () => undefined);
  const onAbort = () => socket.destroy(Object.assign(new Error("aborted"), { code: "ABORT_ERR" }));
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener("abort", onAbort, { once: true });
  socket.once("close", () => opts.signal.removeEventListener("abort", onAbort));
  socket.once(https ? "secureConnect" : "connect", () => {
    if (socket instanceof tls.TLSSocket) {
      // Checked here as well as by the TLS layer: Bun skips the name check when the host is an IP address.
      const wrong = socket.authorized
        ? tls.checkServerIdentity(hostname, socket.getPeerCertificate())
        : (socket.authorizationError ?? new Error("certificate not trusted"));
      if (wrong) return socket.destroy(wrong);
    }
    socket.write(request);
  });

  const reader = new SocketReader(socket);
  return readHead(reader).then(
    ({ status, headers }) => ({ status, headers, body: readBody(reader, status, headers), destroy: () => socket.destroy() }),
    (e) => {
      socket.destroy();
      throw e;
    },
  );
}

async function readHead(reader: SocketReader): Promise<{ status: number; headers: Record<string, string> }> {
  for (;;) {
    const head = await reader.readUntil("\r\n\r\n", MAX_HEAD_BYTES);
    const lines = head.toString("latin1").split("\r\n");
    const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? "");
    if (!m) throw new HttpProtocolError("not an HTTP/1.x response");
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(":");
      if (i <= 0) throw new HttpProtocolError("malformed response header");
      const name = line.slice(0, i).trim().toLowerCase();
      const value = line.slice(i + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    // 1xx answers (100 Continue, 103 Early Hints) precede the real one.
    if (status >= 100 && status < 200) continue;
    return { status, headers };
  }
}

async function* readBody(reader: SocketReader, status: number, headers: Record<string, string>): AsyncIterable<Uint8Array> {
  try {
    if (status === 204 || status === 304) return;
    if (/(^|,)\s*chunked\s*$/i.test(headers["transfer-encoding"] ?? "")) {
      for (;;) {
        const sizeLine = (await reader.readUntil("\r\n", 4096)).toString("latin1");
        const size = parseInt(sizeLine.split(";")[0].trim(), 16);
        if (!Number.isFinite(size) || size < 0 || !/^[0-9a-f]+$/i.test(sizeLine.split(";")[0].trim())) throw new HttpProtocolError("malformed chunk size");
        if (size === 0) {
          // Trailers, up to the empty line.
          while ((await reader.readUntil("\r\n", MAX_HEAD_BYTES)).length > 0);
          return;
        }
        yield* reader.readExactly(size);
        if ((await reader.readUntil("\r\n", 2)).length !== 0) throw new HttpProtocolError("malformed chunk");
      }
    }
    const cl = headers["content-length"];
    if (cl !== undefined) {
      const values = new Set(cl.split(",").map((v) => v.trim()));
      const n = Number([...values][0]);
      if (values.size !== 1 || !/^\d+$/.test([...values][0]) || !Number.isSafeInteger(n)) throw new HttpProtocolError("malformed Content-Length");
      yield* reader.readExactly(n);
      return;
    }
    yield* reader.readToEnd();
  } finally {
    reader.close();
  }
}

/** Pull-style reading of a socket's bytes, with what was read too far pushed back. */
class SocketReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private pending: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(private readonly socket: net.Socket) {
    this.chunks = (socket as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  close(): void {
    this.socket.destroy();
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const r = await this.chunks.next();
    if (r.done) {
      this.ended = true;
      return false;
    }
    this.pending = this.pending.length === 0 ? r.value : Buffer.concat([this.pending, r.value]);
    return true;
  }

  /** Bytes up to (not including) `delimiter`, which is consumed. */
  async readUntil(delimiter: string, max: number): Promise<Buffer> {
    for (;;) {
      const i = this.pending.indexOf(delimiter, 0, "latin1");
      if (i >= 0) {
        const out = this.pending.subarray(0, i);
        this.pending = this.pending.subarray(i + delimiter.length);
        return out;
      }
      if (this.pending.length > max) throw new HttpProtocolError("response header too large");
      if (!(await this.more())) throw closedEarly();
    }
  }

  async *readExactly(n: number): AsyncIterable<Uint8Array> {
    let left = n;
    while (left > 0) {
      if (this.pending.length === 0 && !(await this.more())) throw closedEarly();
      const take = this.pending.subarray(0, Math.min(left, this.pending.length));
      this.pending = this.pending.subarray(take.length);
      left -= take.length;
      yield take;
    }
  }

  async *readToEnd(): AsyncIterable<Uint8Array> {
    if (this.pending.length > 0) {
      const rest = this.pending;
      this.pending = Buffer.alloc(0);
      yield rest;
    }
    for (;;) {
      if (!(await this.more())) return;
      const rest = this.pending;
      this.pending = Buffer.alloc(0);
      yield rest;
    }
  }
}

function closedEarly(): Error {
  return Object.assign(new Error("connection closed before the response was complete"), { code: "ECONNRESET" });
}
