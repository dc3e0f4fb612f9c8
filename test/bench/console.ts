/**
 * Review console page times for a company with 10,000 calls (each with a
 * 40-line transcript and a report): the compiled executable serves /app, one
 * signed-in client asks for each page RUNS times in a row; prints the median
 * and the slowest time per page. Asserts nothing. Run: npm run bench:console
 */
import os from "node:os";
import { createUser } from "../../src/console/users.js";
import { CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { silentLogger } from "../../src/logger.js";
import { createServices } from "../../src/services.js";
import { createCompany } from "../../src/store/companies.js";
import type { Tx } from "../../src/store/db.js";
import { startServeBinary } from "../helpers/binary.js";
import { tempDir, testConfig } from "../helpers/services.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const PASSWORD = "correct horse battery";
const REPS = ["Tony", "Anna", "Maya", "Ravi", "Lena", "Omar", "Jules", "Priya"];
const WORDS = "price budget contract renewal pilot onboarding discount integration security timeline decision manager quarter invoice support trial".split(" ");

function segments(i: number) {
  return Array.from({ length: 40 }, (_, k) => ({
    t_start: k * 6,
    t_end: k * 6 + 5.5,
    speaker: k % 2 === 0 ? "rep" : "customer",
    text: `Line ${k} about the ${WORDS[(i + k) % WORDS.length]} and the ${WORDS[(i * 7 + k) % WORDS.length]}${i === 4242 && k === 10 ? " zeppelin" : ""}, as we said before.`,
  }));
}

function report(i: number) {
  const alerts =
    i % 9 === 0
      ? [
          {
            type: "prohibited_guarantee",
            severity: "high",
            detail: `Guarantee of returns or results at 00:${String(i % 60).padStart(2, "0")} (rep): "We guarantee it"`,
          },
        ]
      : [];
  const score = 30 + (i % 60);
  return {
    overall_score: score,
    score_breakdown: { opening: 7, discovery: 6, presentation: 5, objection_handling: 4, closing: 6, compliance: alerts.length ? 2 : 9 },
    summary: "A discovery call about pricing and the pilot.",
    call_outcome: "follow_up_scheduled",
    close_likelihood: 40,
    objections: [{ objection: "price at 01:10", raised_by: "customer", handled: true, suggested_response: "Value first." }],
    buying_signals: [{ signal: "asked about onboarding", strength: "medium" }],
    missed_opportunities: [],
    coaching_notes: { priority: "medium", detail: "Ask one more discovery question." },
    rep_strengths: [],
    rep_weaknesses: [],
    suggested_follow_up: "Send the pricing sheet.",
    crm_note: "Pricing sent; pilot discussed.",
    compliance_alerts: alerts,
    transcript_highlights: [],
    timeline: [],
    confidence_level: "medium",
  };
}

async function seed(dir: string): Promise<void> {
  const s = await createServices(testConfig(dir), { logger: silentLogger });
  try {
    const company = await createCompany(s.store.db, { name: "Big Co" });
    await createCompany(s.store.db, { name: "Other" });
    await createUser(s.store.db, CLI_ACTOR, { companyId: company.id, email: "bench@big.test", role: "manager", password: PASSWORD }, new Date());
    const start = Date.now() - 84 * 86_400_000;
    for (let b = 0; b < CALLS; b += 500) {
      await s.store.db.transaction().execute(async (trx) => {
        for (let i = b; i < Math.min(CALLS, b + 500); i++)
          await seedCall(trx, company.id, i, new Date(start + Math.floor((i / CALLS) * 84 * 86_400_000)).toISOString());
      });
    }
  } finally {
    await s.close();
  }
}

const METRICS = {
  duration_seconds: 240,
  speech_seconds: 200,
  silence_share: 0.17,
  rep_talk_seconds: 110,
  customer_talk_seconds: 90,
  talk_ratio: 0.55,
  longest_monologue_rep_seconds: 30,
  longest_monologue_customer_seconds: 20,
  turns: 40,
  overlap_seconds: 2,
};

/** One complete call: its row, its transcript and its report. */
async function seedCall(trx: Tx, companyId: number, i: number, at: string): Promise<void> {
  const r = report(i);
  const call = await trx
    .insertInto("calls")
    .values({
      company_id: companyId,
      external_call_id: `b-${i}`,
      rep_name: REPS[i % REPS.length],
      customer_name: `Customer ${i}`,
      call_started_at: at,
      duration_seconds: 240,
      source_system: "bench",
      metadata: "{}",
      intake: "api",
      processing_status: "complete",
      report_status: "ready",
      overall_score: r.overall_score,
      outcome: r.call_outcome,
      priority: 0,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("transcripts")
    .values({
      call_id: call.id,
      source: "imported",
      language: "en",
      model: "imported",
      segments: JSON.stringify(segments(i)),
      metrics: JSON.stringify(METRICS),
      created_at: at,
    })
    .execute();
  await trx
    .insertInto("reports")
    .values({ call_id: call.id, version: 1, analyzer: "rules", report: JSON.stringify(r), created_at: at })
    .execute();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const { dir, cleanup } = tempDir("callreview-bench-console-");
  try {
    const t0 = Date.now();
    await seed(dir);
    console.log(`seeded ${CALLS} calls in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const serve = await startServeBinary(["--data-dir", dir, "--models-dir", `${dir}/models`, "--pipeline", "placeholder", "--workers", "0"]);
    try {
      const login = await fetch(`${serve.url}/app/login`);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await login.text())![1];
      const loginCookie = login.headers.getSetCookie()[0].split(";")[0];
      const signed = await fetch(`${serve.url}/app/login`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: loginCookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrf, email: "bench@big.test", password: PASSWORD }),
      });
      const cookie = signed.headers
        .getSetCookie()
        .find((c) => c.startsWith("callreview_session="))!
        .split(";")[0];
      const pages: Array<[string, string]> = [
        ["calls, first page", "/app/calls"],
        ["calls, page 100", "/app/calls?page=100"],
        ["calls, has alert + score below 50", "/app/calls?alerts=1&score_below=50"],
        ["calls, rep + date range", "/app/calls?rep=Maya&from=2026-01-01&to=2030-12-31"],
        ["calls, unreviewed", "/app/calls?review=unreviewed"],
        ["calls, search one rare word", "/app/calls?q=zeppelin"],
        ["calls, search a common word", "/app/calls?q=budget"],
        ["call page", "/app/calls/5000"],
        ["dashboard (12 weeks)", "/app/dashboard"],
      ];
      console.log(
        `\nconsole pages, ${CALLS} calls, ${RUNS} runs each, sequential; ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0].toFixed(1)}`,
      );
      for (const [name, path] of pages) {
        const times: number[] = [];
        let status = 0;
        let body = "";
        for (let i = 0; i < RUNS + 2; i++) {
          const t = performance.now();
          const r = await fetch(serve.url + path, { headers: { cookie, accept: "text/html" } });
          body = await r.text();
          status = r.status;
          if (i >= 2) times.push(performance.now() - t);
        }
        const shown = /Calls \d+–\d+ of (\d+)|No calls match/.exec(body);
        const matched = shown ? (shown[1] ?? "0") + " match" : "";
        console.log(
          `${name.padEnd(38)} HTTP ${status} ${matched.padStart(11)}  median ${median(times).toFixed(1)} ms  max ${Math.max(...times).toFixed(1)} ms`,
        );
      }
    } finally {
      await serve.stop();
    }
  } finally {
    cleanup();
  }
}

await main();
