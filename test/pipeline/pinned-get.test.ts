import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedGet } from "../../src/net/pinned-get.js";

/** A raw TCP server answering each connection with `reply` (bytes written exactly as given), recording what it was sent. */
async function rawServer(reply: (request: string, socket: net.Socket) => void): Promise<{ port: number; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let buf = "";
    socket.on("data", (d) => {
      buf += d.toString("latin1");
      if (buf.includes("\r\n\r\n")) {
        requests.push(buf);
        reply(buf, socket);
      }
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function bodyText(body: AsyncIterable<Uint8Array>): Promise<string> {
  let out = "";
  for await (const c of body) out += Buffer.from(c).toString("latin1");
  return out;
}

describe("pinnedGet (the download's HTTP client)", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });
  const signal = () => AbortSignal.timeout(5000);

  it("connects to the given address, whatever the name would resolve to, and sends the name as Host", async () => {
    const srv = await rawServer((_req, s) => s.end("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"));
    closers.push(srv.close);
    const res = await pinnedGet(new URL(`http://recordings.invalid:${srv.port}/a/b.wav?x=1`), {
      address: "127.0.0.1",
      headers: { "User-Agent": "t" },
      signal: signal(),
    });
    expect(res.status).toBe(200);
    expect(await bodyText(res.body)).toBe("hello");
    expect(srv.requests[0]).toMatch(/^GET \/a\/b\.wav\?x=1 HTTP\/1\.1\r\n/);
    expect(srv.requests[0]).toContain(`Host: recordings.invalid:${srv.port}\r\n`);
    expect(srv.requests[0]).toContain("User-Agent: t\r\n");
  });

  it("decodes a chunked body with extensions and trailers, after a 100 Continue", async () => {
    const srv = await rawServer((_req, s) => {
      s.write("HTTP/1.1 100 Continue\r\n\r\n");
      s.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\nX-A: 2\r\n\r\n");
      s.write("4;ext=1\r\nabcd\r\n");
      setTimeout(() => s.end("3\r\nefg\r\n0\r\nTrailer: x\r\n\r\n"), 20);
    });
    closers.push(srv.close);
    const res = await pinnedGet(new URL(`http://127.0.0.1:${srv.port}/`), { address: "127.0.0.1", headers: {}, signal: signal() });
    expect(res.status).toBe(200);
    expect(res.headers["x-a"]).toBe("1, 2");
    expect(await bodyText(res.body)).toBe("abcdefg");
  });

  it("reads to the end of the connection when there is no length", async () => {
    const srv = await rawServer((_req, s) => s.end("HTTP/1.0 200 OK\r\nContent-Type: audio/wav\r\n\r\nall of it"));
    closers.push(srv.close);
    const res = await pinnedGet(new URL(`http://127.0.0.1:${srv.port}/`), { address: "127.0.0.1", headers: {}, signal: signal() });
    expect(await bodyText(res.body)).toBe("all of it");
  });

  it("a body cut short of its Content-Length ends with an error, not a short file", async () => {
    const srv = await rawServer((_req, s) => s.end("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this"));
    closers.push(srv.close);
    const res = await pinnedGet(new URL(`http://127.0.0.1:${srv.port}/`), { address: "127.0.0.1", headers: {}, signal: signal() });
    await expect(bodyText(res.body)).rejects.toThrow(/closed before the response was complete/);
  });

  it("rejects what is not HTTP/1.x and conflicting lengths", async () => {
    const junk = await rawServer((_req, s) => s.end("SSH-2.0-OpenSSH\r\n\r\n"));
    closers.push(junk.close);
    await expect(pinnedGet(new URL(`http://127.0.0.1:${junk.port}/`), { address: "127.0.0.1", headers: {}, signal: signal() })).rejects.toThrow(
      /not an HTTP\/1.x response/,
    );
    const two = await rawServer((_req, s) => s.end("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"));
    closers.push(two.close);
    const res = await pinnedGet(new URL(`http://127.0.0.1:${two.port}/`), { address: "127.0.0.1", headers: {}, signal: signal() });
    await expect(bodyText(res.body)).rejects.toThrow(/Content-Length/);
  });

  it("aborting while waiting for headers rejects and closes the connection", async () => {
    let closed = false;
    const srv = await rawServer((_req, s) => s.on("close", () => (closed = true)));
    closers.push(srv.close);
    const ac = new AbortController();
    const p = pinnedGet(new URL(`http://127.0.0.1:${srv.port}/`), { address: "127.0.0.1", headers: {}, signal: ac.signal });
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    await expect(p).rejects.toThrow(/aborted/);
    for (let i = 0; i < 50 && !closed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(true);
  });
});
