import path from "node:path";
import { describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { createServices } from "../../src/services.js";
import { runBinary, runBinaryAsync, startServeBinary } from "../helpers/binary.js";
import { filesContaining } from "../helpers/data-dir.js";
import { tempDir, testConfig } from "../helpers/services.js";

const PHRASE = "periwinkle zeppelin lozenge";
const VTT = `WEBVTT

00:00:00.500 --> 00:00:04.000
<v Anna>Hi Ben, this call is being recorded. Can I take your card number for the ${PHRASE} order?

00:00:04.400 --> 00:00:09.000
<v Ben>Sure, it's four one one one one one one one one one one one one one one one.
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("compliance lifecycle through the executable (bun:sqlite)", () => {
  it("a spoken card number is stored as [CARD]; DELETE erases every byte of the call's words while serve runs; audit lists reads and the delete", async () => {
    const { dir, cleanup } = tempDir();
    const base = ["--data-dir", dir, "--models-dir", path.join(dir, "models")];
    let serve: Awaited<ReturnType<typeof startServeBinary>> | undefined;
    try {
      expect(runBinary([...base, "company", "create", "Acme"]).code).toBe(0);
      const key = JSON.parse(
        runBinary([...base, "key", "create", "--company", "1", "--scopes", "calls:write,calls:read,reports:read,calls:delete", "--json"]).stdout,
      ).key as string;
      serve = await startServeBinary([...base, "--pipeline", "placeholder", "--workers", "1", "--log-level", "warn"]);
      const auth = { authorization: `Bearer ${key}` };
      const created = await fetch(`${serve.url}/api/v1/calls`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ external_call_id: "erase-bin-1" }),
      });
      const callId = (await created.json()).call_id as number;
      let status = 0;
      for (let i = 0; i < 100 && status !== 202; i++) {
        status = (
          await fetch(`${serve.url}/api/v1/calls/${callId}/transcript?rep_speaker=Anna`, {
            method: "POST",
            headers: { ...auth, "content-type": "text/vtt" },
            body: VTT,
          })
        ).status;
        if (status !== 202) await sleep(50);
      }
      expect(status).toBe(202);
      let report: any;
      for (let i = 0; i < 200 && !report; i++) {
        const r = await fetch(`${serve.url}/api/v1/calls/${callId}/report`, { headers: auth });
        const body = r.status === 200 ? (await r.json()).report : undefined;
        if (body && !body.summary.startsWith("Placeholder")) report = body;
        else await sleep(100);
      }
      expect(report.compliance_alerts.map((a: { type: string }) => a.type)).toContain("payment_data_request");
      const transcript = await (await fetch(`${serve.url}/api/v1/calls/${callId}/transcript`, { headers: auth })).json();
      expect(transcript.segments[1].text).toBe("Sure, it's [CARD].");
      expect(filesContaining(dir, PHRASE).length).toBeGreaterThan(0);
      expect(filesContaining(dir, "four one one one")).toEqual([]);

      const del = await fetch(`${serve.url}/api/v1/calls/${callId}`, { method: "DELETE", headers: auth });
      expect(del.status).toBe(204);
      expect((await fetch(`${serve.url}/api/v1/calls/${callId}`, { headers: auth })).status).toBe(404);
      expect(filesContaining(dir, PHRASE)).toEqual([]);

      const audit = runBinary([...base, "audit", "list", "--call", String(callId), "--json"]);
      expect(audit.code).toBe(0);
      const actions = JSON.parse(audit.stdout).map((e: { action: string }) => e.action);
      // Newest first; the report was polled until the rules report replaced the placeholder, each read recorded.
      expect(actions[0]).toBe("call.delete");
      expect(actions).toContain("transcript.read");
      expect(actions).toContain("report.read");
      expect(audit.stdout).not.toContain(PHRASE);

      // The CLI erases while serve keeps the database open: another process, the same guarantee.
      const second = await fetch(`${serve.url}/api/v1/calls`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ external_call_id: "erase-bin-2", customer_name: PHRASE }),
      });
      const secondId = (await second.json()).call_id as number;
      expect(filesContaining(dir, PHRASE).length).toBeGreaterThan(0);
      let erased = runBinary([...base, "calls", "delete", String(secondId), "--yes"]);
      for (let i = 0; i < 50 && erased.code !== 0 && /being processed/.test(erased.stderr); i++) {
        await sleep(100);
        erased = runBinary([...base, "calls", "delete", String(secondId), "--yes"]);
      }
      expect(erased.stderr).toBe("");
      expect(erased.code).toBe(0);
      expect((await fetch(`${serve.url}/api/v1/calls/${secondId}`, { headers: auth })).status).toBe(404);
      expect(filesContaining(dir, PHRASE)).toEqual([]);
    } finally {
      await serve?.stop();
      cleanup();
    }
  });

  it("a backup taken while calls are being accepted restores into a new data dir that serves every call that was complete", async () => {
    const { dir: root, cleanup } = tempDir();
    const data = path.join(root, "data");
    const models = ["--models-dir", path.join(root, "models")];
    let serve: Awaited<ReturnType<typeof startServeBinary>> | undefined;
    let restoredServe: Awaited<ReturnType<typeof startServeBinary>> | undefined;
    try {
      expect(runBinary(["--data-dir", data, ...models, "company", "create", "Acme"]).code).toBe(0);
      const key = JSON.parse(runBinary(["--data-dir", data, "key", "create", "--company", "1", "--json"]).stdout).key as string;
      serve = await startServeBinary([
        "--data-dir",
        data,
        ...models,
        "--pipeline",
        "placeholder",
        "--workers",
        "2",
        "--log-level",
        "warn",
        "--rate-limit",
        "0",
      ]);
      const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      let n = 0;
      let stop = false;
      const submit = async () => {
        while (!stop) {
          const r = await fetch(`${serve!.url}/api/v1/calls`, {
            method: "POST",
            headers: auth,
            body: JSON.stringify({ external_call_id: `bk-${n++}`, customer_name: "Backup Test" }),
          });
          expect(r.status).toBe(201);
        }
      };
      const writers = [submit(), submit()];
      while (n < 30) await sleep(20);
      const backupDir = path.join(root, "backup");
      const b = await runBinaryAsync(["--data-dir", data, ...models, "backup", backupDir, "--json"]);
      const acceptedDuringBackup = n;
      while (n < acceptedDuringBackup + 20) await sleep(20);
      stop = true;
      await Promise.all(writers);
      expect(b.stderr).toBe("");
      expect(b.code).toBe(0);
      const manifest = JSON.parse(b.stdout);
      expect(manifest.calls).toBeGreaterThanOrEqual(30);
      await serve.stop();
      serve = undefined;

      const restored = path.join(root, "restored");
      const r = runBinary(["--data-dir", restored, ...models, "restore", backupDir]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const listed = JSON.parse(runBinary(["--data-dir", restored, "calls", "list", "--limit", "1000", "--json"]).stdout) as Array<{
        call_id: number;
        processing_status: string;
      }>;
      expect(listed).toHaveLength(manifest.calls);
      const complete = listed.filter((c) => c.processing_status === "complete");
      expect(complete.length).toBeGreaterThan(0);

      restoredServe = await startServeBinary([
        "--data-dir",
        restored,
        ...models,
        "--pipeline",
        "placeholder",
        "--workers",
        "0",
        "--log-level",
        "warn",
        "--rate-limit",
        "0",
      ]);
      for (const c of complete) {
        const rep = await fetch(`${restoredServe.url}/api/v1/calls/${c.call_id}/report`, { headers: auth });
        expect(rep.status).toBe(200);
      }
    } finally {
      await serve?.stop();
      await restoredServe?.stop();
      cleanup();
    }
  });

  it("retention: company update sets the days, doctor shows what is due, retention run erases it", async () => {
    const { dir, cleanup } = tempDir();
    const base = ["--data-dir", dir, "--models-dir", path.join(dir, "models")];
    try {
      expect(runBinary([...base, "company", "create", "Acme"]).code).toBe(0);
      expect(runBinary([...base, "company", "update", "1", "--retain-calls-days", "30", "--retain-audio-days", "7"]).code).toBe(0);
      const writer = await createServices(testConfig(dir), { logger: silentLogger });
      try {
        await acceptCall(writer.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "ancient" } }, new Date(Date.now() - 90 * 86_400_000));
        await acceptCall(writer.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "fresh" } });
      } finally {
        await writer.close();
      }
      const doctor = runBinary([...base, "doctor"]);
      expect(doctor.code).toBe(0);
      expect(doctor.stdout).toMatch(/company 1 {2}audio 7 d \(0 due\), transcripts - d \(0 due\), calls 30 d \(1 due\)/);
      const run = runBinary([...base, "retention", "run", "--json"]);
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout).companies[0]).toMatchObject({ company_id: 1, calls_erased: 1 });
      const calls = JSON.parse(runBinary([...base, "calls", "list", "--json"]).stdout).map((c: { external_call_id: string }) => c.external_call_id);
      expect(calls).toEqual(["fresh"]);
      const audit = JSON.parse(runBinary([...base, "audit", "list", "--json"]).stdout).map((e: { action: string; actor: string }) => `${e.action}:${e.actor}`);
      expect(audit.slice(0, 2)).toEqual(["retention.run:retention", "call.delete:retention"]);
    } finally {
      cleanup();
    }
  });
});
