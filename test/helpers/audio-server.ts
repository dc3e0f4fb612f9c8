import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface AudioServer {
  url: string;
  /** Requests seen per path. */
  hits: Map<string, number>;
  /** Headers of the last request. */
  lastHeaders(): http.IncomingHttpHeaders | undefined;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1:0 serving one audio file at /audio/<anything>,
 * after `delayMs` (to make downloads take time), plus the misbehaving routes the
 * download tests need.
 */
export async function startAudioServer(audioFile: string, opts: { delayMs?: number } = {}): Promise<AudioServer> {
  const audio = fs.readFileSync(audioFile);
  const hits = new Map<string, number>();
  let last: http.IncomingHttpHeaders | undefined;
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const p = u.pathname;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    last = req.headers;
    const send = () => serveRoute(req, res, u, audio);
    if (opts.delayMs) setTimeout(send, opts.delayMs);
    else send();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    lastHeaders: () => last,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The audio file, and the misbehaving routes the download tests need. */
function serveRoute(req: http.IncomingMessage, res: http.ServerResponse, u: URL, audio: Buffer): void {
  const p = u.pathname;
  if (p.startsWith("/auth/")) {
    // Basic auth: user "rec", password "s3cr:t@" (characters that must be percent-encoded in a URL).
    const ok = req.headers.authorization === `Basic ${Buffer.from("rec:s3cr:t@").toString("base64")}`;
    res.writeHead(ok ? 200 : 401, { "content-type": ok ? "audio/wav" : "text/plain" });
    res.end(ok ? audio : "unauthorized");
  } else if (p === "/to") {
    // Redirects wherever ?u= says (a hop the download policy must check too).
    res.writeHead(302, { location: u.searchParams.get("u") ?? "/" });
    res.end();
  } else if (p.startsWith("/audio/")) {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": audio.length });
    res.end(audio);
  } else if (p === "/html") {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><html><body>Sign in to download this recording</body></html>");
  } else if (p === "/slow") {
    // Headers never come: the connect timeout must fire.
  } else if (p === "/slow-body") {
    res.writeHead(200, { "content-type": "audio/wav" });
    res.write(audio.subarray(0, 1024));
    // ... and the rest never comes: the total timeout must fire.
  } else if (p.startsWith("/loop/")) {
    const n = Number(p.split("/")[2]);
    res.writeHead(302, { location: `/loop/${n + 1}` });
    res.end();
  } else if (p.startsWith("/redirect/")) {
    const n = Number(p.split("/")[2]);
    res.writeHead(302, { location: n <= 1 ? "/audio/final.wav" : `/redirect/${n - 1}` });
    res.end();
  } else if (p === "/big") {
    // No content-length: the cap must be enforced while streaming.
    res.writeHead(200, { "content-type": "audio/wav" });
    const chunk = Buffer.concat([audio.subarray(0, 44), Buffer.alloc(1 << 20)]);
    let sent = 0;
    const pump = () => {
      while (sent < 8 && res.write(sent === 0 ? chunk : Buffer.alloc(1 << 20))) sent++;
      if (sent < 8) res.once("drain", pump);
      else res.end();
    };
    pump();
  } else {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  }
}
