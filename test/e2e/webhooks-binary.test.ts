import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { createServices } from "../../src/services.js";
import { startReceiver, type Receiver } from "../events/receiver.js";
import { runBinary, runBinaryAsync, startServeBinary } from "../helpers/binary.js";

import { tempDir, testConfig } from "../helpers/services.js";

/** The compiled executable (Bun, bun:sqlite, Bun's fetch) delivers signed webhooks while another process writes events. */
describe("webhooks through the executable", () => {
  let dir: string;
  let cleanup: () => void;
  let r: Receiver;
  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    r = await startReceiver();
  });
  afterAll(async () => {
    await r.close();
    cleanup();
  });

  it("webhook add, serve delivers what another process records, deliveries list shows it", async () => {
    expect(runBinary(["--data-dir", dir, "company", "create", "Acme"]).code).toBe(0);
    const added = runBinary(["--data-dir", dir, "webhook", "add", "--company", "1", "--url", r.url, "--json"]);
    expect(added.code).toBe(0);
    const secret = JSON.parse(added.stdout).secret as string;
    r.secrets = [secret];
    expect(runBinary(["--data-dir", dir, "webhook", "list", "--json"]).stdout).not.toContain(secret);

    const serve = await startServeBinary(["--data-dir", dir, "--workers", "0", "--log-level", "warn"]);
    try {
      const writer = await createServices(testConfig(dir), { logger: silentLogger });
      try {
        await acceptCall(writer.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "bin-1" } });
      } finally {
        await writer.close();
      }
      await r.waitFor(1);
      const got = r.received[0];
      expect(got.verified).toEqual([true]);
      expect(got.body).toMatchObject({ type: "call.received", data: { external_call_id: "bin-1" } });
      const test = await runBinaryAsync(["--data-dir", dir, "webhook", "test", "1"]);
      expect(test.stderr).toBe("");
      expect(test.code).toBe(0);
      expect(test.stdout).toMatch(/HTTP 200/);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    const list = JSON.parse(runBinary(["--data-dir", dir, "deliveries", "list", "--json"]).stdout);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: "delivered", attempts: 1, response_status: 200, event_type: "call.received" });
    expect(r.received.filter((x) => x.verified[0])).toHaveLength(2);
  });

  it("two serve processes on one data dir send each event exactly once", async () => {
    const { dir: dir2, cleanup: cleanup2 } = tempDir();
    const rx = await startReceiver();
    try {
      expect(runBinary(["--data-dir", dir2, "company", "create", "Acme"]).code).toBe(0);
      rx.secrets = [JSON.parse(runBinary(["--data-dir", dir2, "webhook", "add", "--company", "1", "--url", rx.url, "--json"]).stdout).secret];
      const a = await startServeBinary(["--data-dir", dir2, "--workers", "0", "--log-level", "warn"]);
      const b = await startServeBinary(["--data-dir", dir2, "--workers", "0", "--log-level", "warn"]);
      try {
        const writer = await createServices(testConfig(dir2), { logger: silentLogger });
        try {
          for (let i = 0; i < 60; i++) await acceptCall(writer.store.db, { companyId: 1, intake: "api", fields: { external_call_id: `two-${i}` } });
        } finally {
          await writer.close();
        }
        await rx.waitFor(60);
        await new Promise((res) => setTimeout(res, 500)); // room for a duplicate to show up, if there were one
      } finally {
        expect(await a.stop()).toBe(0);
        expect(await b.stop()).toBe(0);
      }
      const ids = rx.received.map((x) => x.headers["x-service-event-id"]);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
      expect(rx.received.every((x) => x.verified[0])).toBe(true);
      const list = JSON.parse(runBinary(["--data-dir", dir2, "deliveries", "list", "--limit", "100", "--json"]).stdout);
      expect(list).toHaveLength(60);
      expect(list.every((d: { status: string; attempts: number }) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    } finally {
      await rx.close();
      cleanup2();
    }
  });
});
