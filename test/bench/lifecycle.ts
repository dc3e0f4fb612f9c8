/**
 * `npm run bench:lifecycle`: redaction of a one-hour transcript, erasing a call
 * (rows, event tombstones, secure_delete and WAL truncation), and an online
 * backup of a store with many calls. Medians of several runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { acceptCall } from "../../src/intake/accept-call.js";
import { CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { createBackup } from "../../src/lifecycle/backup/create-backup.js";
import { eraseCall } from "../../src/lifecycle/erase-call.js";
import { REDACTION_KINDS } from "../../src/lifecycle/redaction/kinds.js";
import { redactTranscript } from "../../src/lifecycle/redaction/redact-transcript.js";
import { silentLogger } from "../../src/logger.js";
import type { Transcript } from "../../src/pipeline/ports.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { createServices } from "../../src/services.js";
import { createCompany } from "../../src/store/companies.js";
import { tempDir, testConfig } from "../helpers/services.js";
import { CALLS } from "../eval/calls.js";
import { oneHour } from "./one-hour.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The rules bench's hour with a card number read out every ~50 segments, so the detectors have something to replace. */
function oneHourWithCards(): Transcript {
  const t = oneHour();
  const segments = t.segments.map((s, i) =>
    i % 50 === 0 ? { ...s, text: `${s.text} It's four one one one, one one one one, one one one one, one one one one.` } : s,
  );
  return { ...t, segments };
}

function benchRedaction() {
  const t = oneHourWithCards();
  const ms: number[] = [];
  for (let run = 0; run < 7; run++) {
    const start = performance.now();
    redactTranscript(t, REDACTION_KINDS);
    ms.push(performance.now() - start);
  }
  console.log(
    `redaction, all kinds: one-hour transcript (${t.segments.length} segments): median ${median(ms).toFixed(1)} ms (runs: ${ms.map((x) => x.toFixed(1)).join(", ")})`,
  );
}

async function benchEraseAndBackup(calls: number) {
  const { dir, cleanup } = tempDir("callreview-bench-");
  const s = await createServices(testConfig(dir), { logger: silentLogger });
  try {
    const companyId = (await createCompany(s.store.db, { name: "Bench" })).id;
    const transcript = CALLS[0].transcript;
    for (let i = 0; i < calls; i++)
      await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: `b-${i}`, customer_name: `Customer ${i}` }, transcript });
    while (await runOnce(s)) {}
    const bytes = fs.statSync(path.join(dir, "callreview.db")).size;

    const backupMs: number[] = [];
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      await createBackup(s, { dir: path.join(dir, `backup-${run}`), actor: CLI_ACTOR });
      backupMs.push(performance.now() - start);
    }
    console.log(`backup: ${calls} complete calls (database ${(bytes / 1024 / 1024).toFixed(1)} MiB, no audio): median ${median(backupMs).toFixed(0)} ms`);

    const eraseMs: number[] = [];
    for (let id = 1; id <= 25; id++) {
      const start = performance.now();
      await eraseCall(s, { callId: id, actor: CLI_ACTOR });
      eraseMs.push(performance.now() - start);
    }
    console.log(`erase one call (transcript, report, events, history; WAL truncated each time): median ${median(eraseMs).toFixed(1)} ms over 25 calls`);
  } finally {
    await s.close();
    cleanup();
  }
}

console.log(
  `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown"}), load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}, node ${process.version}`,
);
benchRedaction();
await benchEraseAndBackup(Number(process.env.BENCH_CALLS ?? 1000));
