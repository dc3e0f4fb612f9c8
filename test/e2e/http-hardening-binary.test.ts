import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBinary, startServeBinary, type ServeProcess, companyAndKeyBinary } from "../helpers/binary.js";
import { tempDir } from "../helpers/services.js";
import { rawExchange } from "../helpers/raw-http.js";
import { until } from "../helpers/wait.js";

/**
 * The defects of this file live in the listener of the compiled executable
 * (Bun.serve): its body streams end differently from Node's when a client
 * leaves, and it frames requests by the first of several Content-Length headers.
 */

const tmpFiles = (dataDir: string) => {
  const tmp = path.join(dataDir, "audio", "tmp");
  return fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
};

const uploadHead = (key: string) =>
  `POST /v1/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 5000000\r\n\r\n` +
  `--B\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF\x24\x00\x00\x00WAVEfmt ${"x".repeat(100_000)}`;

const jsonHead = (key: string) =>
  `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"rep_name":"x`;

function portOf(server: ServeProcess): number {
  return Number(new URL(server.url).port);
}

/** Writes the start of a request; `leave` drops the connection once the bytes are out, otherwise it stays open, silent. */
function halfRequest(port: number, data: string, leave: boolean): Promise<net.Socket> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.on("error", () => undefined);
    s.resume();
    s.write(data, () =>
      setTimeout(() => {
        if (leave) s.destroy();
        resolve(s);
      }, 50),
    );
  });
}

describe("HTTP hardening through the compiled executable", () => {
  let dir: ReturnType<typeof tempDir>;
  let key: string;
  const serveArgs = () => ["--data-dir", dir.dir, "--workers", "0", "--pipeline", "placeholder"];
  const callCount = () => {
    const r = runBinary(["calls", "list", "--json", "--data-dir", dir.dir]);
    return r.code === 0 ? (JSON.parse(r.stdout) as unknown[]).length : -1;
  };

  beforeAll(() => {
    dir = tempDir("callreview-e2e-hardening-");
    key = companyAndKeyBinary(["--data-dir", dir.dir]).key;
  });
  afterAll(() => dir?.cleanup());

  it("refuses two Content-Length headers with 400 bad_request in the JSON error shape", async () => {
    const server = await startServeBinary(serveArgs());
    try {
      const body = '{"external_call_id":"smuggle"}';
      for (const second of ["5", String(body.length)]) {
        const answer = await rawExchange(
          portOf(server),
          `POST /v1/calls HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: ${second}\r\nConnection: close\r\n\r\n${body}`,
        );
        expect(answer.split(" ")[1]).toBe("400");
        expect(JSON.parse(answer.split("\r\n\r\n")[1])).toEqual({ error: "bad_request", message: expect.any(String) });
      }
      const proto = await fetch(`${server.url}/v1/calls`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: '{"constructor":1}',
      });
      expect(proto.status).toBe(422);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(callCount()).toBe(0);
  });

  it("aborted uploads leave no temp file, and SIGTERM after aborted uploads and JSON bodies exits", async () => {
    const server = await startServeBinary(serveArgs());
    const port = portOf(server);
    for (let i = 0; i < 5; i++) await Promise.all(Array.from({ length: 10 }, () => halfRequest(port, uploadHead(key), true)));
    await Promise.all(Array.from({ length: 5 }, () => halfRequest(port, jsonHead(key), true)));
    await until(() => tmpFiles(dir.dir).length === 0, "temp files of aborted uploads removed");
    expect(await server.stop()).toBe(0);
    expect(callCount()).toBe(0);
  });

  it("SIGTERM completes while clients hold half-sent bodies open, and nothing is left in the temp dir", async () => {
    const server = await startServeBinary(serveArgs());
    const port = portOf(server);
    const held = [await halfRequest(port, uploadHead(key), false), await halfRequest(port, jsonHead(key), false)];
    await until(() => tmpFiles(dir.dir).length === 1, "the held upload is being written");
    expect(await server.stop()).toBe(0);
    for (const s of held) s.destroy();
    expect(tmpFiles(dir.dir)).toEqual([]);
  }, 60_000);

  it("a restart removes the temp file of an upload cut off by a crash", async () => {
    const first = await startServeBinary(serveArgs());
    const held = await halfRequest(portOf(first), uploadHead(key), false);
    await until(() => tmpFiles(dir.dir).length === 1, "the held upload is being written");
    await first.stop("SIGKILL");
    held.destroy();
    expect(tmpFiles(dir.dir)).toHaveLength(1);
    const second = await startServeBinary(serveArgs());
    try {
      expect(tmpFiles(dir.dir)).toEqual([]);
      expect(second.stderr()).toContain("removed stale upload temp files");
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it("SIGTERM right after start-up stops gracefully (exit 0, `stopped` logged), not by the signal's default action", async () => {
    for (let i = 0; i < 5; i++) {
      const server = await startServeBinary(serveArgs());
      expect(await server.stop(), server.stderr()).toBe(0);
      expect(server.stderr()).toContain('"msg":"stopped"');
    }
  });
});
