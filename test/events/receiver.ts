import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A customer's receiver, written from spec 6.2 alone (not from our signing
 * code): split the header on commas, read t and the v1 values, recompute
 * HMAC-SHA256 over `t + "." + raw body` keyed by the secret's UTF-8 bytes,
 * compare in constant time, reject a timestamp more than 300 s off.
 */
export function specVerify(header: string | undefined, secret: string, rawBody: Buffer, nowSeconds: number): boolean {
  if (!header) return false;
  let t: string | undefined;
  const v1: string[] = [];
  for (const item of header.split(",")) {
    const [k, v] = item.split("=", 2);
    if (k === "t") t = v;
    if (k === "v1") v1.push(v);
  }
  if (t === undefined || !/^\d+$/.test(t)) return false;
  if (Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.`).update(rawBody).digest();
  return v1.some((hex) => {
    const got = Buffer.from(hex, "hex");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

export interface Received {
  n: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  /** Whether the signature verified with each secret the receiver knows, in order. */
  verified: boolean[];
  t: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Answer only once this resolves (a slow or hanging receiver). */
  wait?: Promise<unknown>;
}

export interface Receiver {
  url: string;
  received: Received[];
  secrets: string[];
  answer: (r: Received) => Answer;
  close(): Promise<void>;
  /** Resolves when at least n requests arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
}

export async function startReceiver(opts: { secrets?: string[]; nowSeconds?: () => number; answer?: (r: Received) => Answer } = {}): Promise<Receiver> {
  const received: Received[] = [];
  let waiters: Array<() => boolean> = [];
  const nowSeconds = opts.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const self: Receiver = {
    url: "",
    received,
    secrets: opts.secrets ?? [],
    answer: opts.answer ?? (() => ({ status: 200 })),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
    waitFor: (n, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests`)), timeoutMs);
        const check = () => {
          if (received.length >= n) {
            clearTimeout(timer);
            resolve();
            return true;
          }
          return false;
        };
        if (!check()) waiters.push(check);
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      const sig = req.headers["x-service-signature"] as string | undefined;
      const r: Received = {
        n: received.length + 1,
        headers: req.headers,
        raw,
        body: raw.length ? JSON.parse(raw.toString("utf8")) : undefined,
        verified: self.secrets.map((s) => specVerify(sig, s, raw, nowSeconds())),
        t: Number(/(?:^|,)t=(\d+)/.exec(sig ?? "")?.[1]),
      };
      received.push(r);
      waiters = waiters.filter((w) => !w());
      const a = self.answer(r);
      if (a.wait) await a.wait;
      if (!res.destroyed) {
        res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
        res.end("ok");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return self;
}

/** A port nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/hook`;
}

/** A clock tests move by hand. */
export class ManualClock {
  constructor(public ms = Date.parse("2026-03-01T12:00:00.000Z")) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  seconds(): number {
    return Math.floor(this.ms / 1000);
  }
}
