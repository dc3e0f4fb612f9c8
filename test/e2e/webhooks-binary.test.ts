import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { createServices } from "../../src/services.js";
import { startReceiver, type Receiver } from "../events/receiver.js";
import { spawn } from "node:child_process";
import { ensureBinary, runBinary, startServeBinary } from "../helpers/binary.js";

/** runBinary blocks this process, and with it the in-process receiver: `webhook test` needs an async spawn. */
function runBinaryAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CALLREVIEW_")));
    const child = spawn(ensureBinary(), args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
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
});
