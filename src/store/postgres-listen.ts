import type { Kysely } from "kysely";
import pg from "pg";

/**
 * LISTEN on one channel of a PostgreSQL store, over a connection of its own
 * (a pooled connection cannot stay in LISTEN). Only a wake-up hint: callers
 * keep their poll timer, so a lost connection costs latency, not work; it is
 * reopened after a pause.
 */
const urls = new WeakMap<Kysely<any>, string>();

export function rememberUrl(db: Kysely<any>, url: string): void {
  urls.set(db, url);
}

const RECONNECT_MS = 1_000;

export function listen(db: Kysely<any>, channel: string, onNotify: () => void): () => void {
  const url = urls.get(db);
  if (!url) return () => undefined;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    const again = () => {
      c.removeAllListeners();
      c.on("error", () => undefined);
      void c.end().catch(() => undefined);
      if (!closed && !retry) retry = setTimeout(() => ((retry = undefined), connect()), RECONNECT_MS);
    };
    c.on("error", again);
    c.on("end", () => !closed && again());
    c.on("notification", (n) => n.channel === channel && onNotify());
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      // Jobs committed while we were not listening are found by the poll; one wake-up now covers the gap.
      .then(() => onNotify())
      .catch(again);
  };
  connect();
  return () => {
    closed = true;
    if (retry) clearTimeout(retry);
    client?.removeAllListeners();
    client?.on("error", () => undefined);
    void client?.end().catch(() => undefined);
  };
}
