import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEntries } from "../../src/store/audit-log.js";
import { consoleHarness, FLAGGED_VTT, PLAIN_VTT, type Browser } from "./harness.js";

type H = Awaited<ReturnType<typeof consoleHarness>>;

describe("review console over HTTP", () => {
  let h: H;
  let flagged: number;
  let plain: number;
  beforeAll(async () => {
    h = await consoleHarness();
    flagged = await h.call({ external: "c-1", rep: "Tony", customer: "Ellis", vtt: FLAGGED_VTT, repSpeaker: "Tony", audio: true });
    plain = await h.call({ external: "c-2", rep: "Anna", customer: "Ben", vtt: PLAIN_VTT, repSpeaker: "Anna" });
  });
  afterAll(() => h.dispose());

  async function signedIn(email = "rita@acme.test"): Promise<Browser> {
    const b = h.browser();
    const r = await b.login(email);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/app/calls");
    return b;
  }

  it("login page: a form with email and password; pages without a session redirect to it", async () => {
    const b = h.browser();
    const page = await (await b.fetch("/app/login")).text();
    expect(page).toContain('name="email"');
    expect(page).toContain('name="password"');
    const r = await b.fetch("/app/calls?status=complete");
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/app/login?next=%2Fapp%2Fcalls%3Fstatus%3Dcomplete");
    const api = await b.fetch("/app/calls/status?ids=1", { headers: { accept: "application/json" } });
    expect(api.status).toBe(401);
  });

  it("sign-in sets an HttpOnly, SameSite=Lax session cookie (Secure behind https); wrong passwords, missing CSRF and open redirects are refused", async () => {
    const noCsrf = await h.browser().post("/app/login", { email: "rita@acme.test", password: "correct horse battery" });
    expect(noCsrf.status).toBe(403);
    const wrong = await h.browser().login("rita@acme.test", "wrong password!!");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("wrong email or password");
    const unknown = await h.browser().login("nobody@acme.test");
    expect(unknown.status).toBe(401);

    const b = await signedIn();
    const cookie = b.setCookies.find((c) => c.startsWith("callreview_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/app/);
    expect(cookie).not.toMatch(/Secure/);

    const https = h.browser();
    const page = await (await https.fetch("/app/login", { headers: { "x-forwarded-proto": "https" } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1];
    const r = await https.post(
      "/app/login",
      { _csrf: csrf, email: "rita@acme.test", password: "correct horse battery", next: "//evil.test/x" },
      { "x-forwarded-proto": "https" },
    );
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/app/calls");
    expect(https.setCookies.find((c) => c.startsWith("callreview_session="))).toMatch(/Secure/);
  });

  it("five wrong passwords lock the account, even for the right one; more attempts are throttled", async () => {
    const { createUser } = await import("../../src/console/users.js");
    await createUser(
      h.s.store.db,
      { type: "cli", id: "cli" },
      { companyId: h.acme.id, email: "lock@acme.test", role: "reviewer", password: "correct horse battery" },
      new Date(),
    );
    for (let i = 0; i < 5; i++) expect((await h.browser().login("lock@acme.test", `wrong ${i} password`)).status).toBe(401);
    const locked = await h.browser().login("lock@acme.test");
    expect(locked.status).toBe(401);
    expect(await locked.text()).toContain("locked");
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.browser().login("lock@acme.test")).status);
    expect(statuses.at(-1)).toBe(429);
    const audit = await listAuditEntries(h.s.store.db, { companyId: h.acme.id, limit: 1000 });
    expect(audit.filter((a) => a.action === "user.login_failed").length).toBeGreaterThanOrEqual(5);
  });

  it("calls page: lists the company's calls with badges; filters, full-text search and bad filters", async () => {
    const b = await signedIn();
    const all = await (await b.fetch("/app/calls")).text();
    expect(all).toContain("Calls 1–2 of 2");
    expect(all).toMatch(/1 alert|\d alerts/);
    const search = await (await b.fetch("/app/calls?q=zeppelin")).text();
    expect(search).toContain("Calls 1–1 of 1");
    expect(search).toContain(`href="/app/calls/${flagged}"`);
    expect(search).not.toContain(`href="/app/calls/${plain}"`);
    const prefix = await (await b.fetch("/app/calls?q=greenho")).text();
    expect(prefix).toContain(`href="/app/calls/${plain}"`);
    expect(await (await b.fetch("/app/calls?q=%22OR%20-")).text()).toContain("No calls match.");
    const alerts = await (await b.fetch("/app/calls?alerts=1")).text();
    expect(alerts).toContain(`href="/app/calls/${flagged}"`);
    expect(alerts).not.toContain(`href="/app/calls/${plain}"`);
    const rep = await (await b.fetch("/app/calls?rep=Anna")).text();
    expect(rep).toContain("Calls 1–1 of 1");
    expect(rep).toContain(`href="/app/calls/${plain}"`);
    expect(await (await b.fetch("/app/calls?from=2999-01-01")).text()).toContain("No calls match.");
    const bad = await b.fetch("/app/calls?score_below=abc&from=yesterday");
    expect(bad.status).toBe(422);
    expect(await bad.text()).toMatch(/score_below must be .*from must be a date/);
    const status = await (await b.fetch(`/app/calls/status?ids=${flagged},${plain}`, { headers: { accept: "application/json" } })).json();
    expect(status.map((x: { id: number }) => x.id).sort()).toEqual([flagged, plain].sort());
  });

  it("call page: transcript lines that seek, the alert at its moment, the report; audio with Range 206 and 416", async () => {
    const b = await signedIn();
    const page = await (await b.fetch(`/app/calls/${flagged}`)).text();
    expect(page).toContain(`<audio id="player" controls preload="metadata" src="/app/calls/${flagged}/audio"`);
    expect(page).toContain('data-seek="5"');
    expect(page).toContain("We guarantee a return of nine percent a year.");
    expect(page).toContain("Play the moment of the prohibited guarantee alert at 0:05");
    expect(page).toContain("Report (version 1)");
    expect(page).toContain("CRM note");
    const full = await b.fetch(`/app/calls/${flagged}/audio`);
    expect(full.status).toBe(200);
    expect(full.headers.get("accept-ranges")).toBe("bytes");
    const size = (await full.arrayBuffer()).byteLength;
    const part = await b.fetch(`/app/calls/${flagged}/audio`, { headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    const tail = await b.fetch(`/app/calls/${flagged}/audio`, { headers: { range: "bytes=-10" } });
    expect(tail.headers.get("content-range")).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    const beyond = await b.fetch(`/app/calls/${flagged}/audio`, { headers: { range: `bytes=${size}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${size}`);
    expect((await b.fetch(`/app/calls/${plain}/audio`)).status).toBe(404);
  });

  it("review: CSRF is required; confirming an alert and marking reviewed are stored, audited, filterable, exported and emitted as call.reviewed", async () => {
    const b = await signedIn();
    const csrf = await b.csrf();
    const page = await (await b.fetch(`/app/calls/${flagged}`)).text();
    const index = Number(/action="\/app\/calls\/\d+\/alerts\/(\d+)"/.exec(page)![1]);
    const noToken = await b.post(`/app/calls/${flagged}/alerts/${index}`, { decision: "confirmed" });
    expect(noToken.status).toBe(403);
    const wrongToken = await b.post(`/app/calls/${flagged}/review`, { _csrf: "x".repeat(32) });
    expect(wrongToken.status).toBe(403);
    const bad = await b.post(`/app/calls/${flagged}/alerts/${index}`, { _csrf: csrf, decision: "maybe" });
    expect(bad.status).toBe(422);
    expect((await b.post(`/app/calls/${flagged}/alerts/99`, { _csrf: csrf, decision: "confirmed" })).status).toBe(404);

    const ok = await b.post(`/app/calls/${flagged}/alerts/${index}`, { _csrf: csrf, decision: "confirmed", note: "clear guarantee" });
    expect(ok.status).toBe(303);
    const after = await (await b.fetch(`/app/calls/${flagged}`)).text();
    expect(after).toMatch(/<span class="decision confirmed">confirmed<\/span> by rita@acme.test/);
    expect(after).toContain("clear guarantee");

    expect((await b.fetch("/app/calls?review=reviewed")).status).toBe(200);
    expect(await (await b.fetch("/app/calls?review=reviewed")).text()).toContain("No calls match.");
    const reviewed = await b.post(`/app/calls/${flagged}/review`, { _csrf: csrf, note: "done" });
    expect(reviewed.status).toBe(303);
    const list = await (await b.fetch("/app/calls?review=reviewed")).text();
    expect(list).toContain(`href="/app/calls/${flagged}"`);
    expect(list).not.toContain(`href="/app/calls/${plain}"`);

    const csv = await b.fetch("/app/calls.csv?review=reviewed");
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "call_id,external_call_id,started_at,rep_name,customer_name,duration_seconds,processing_status,overall_score,outcome,alert_count,review_state,reviewed_at",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${flagged},c-1,.*,Tony,Ellis,.*,reviewed,20`));

    const events = await h.s.store.db.selectFrom("events").selectAll().where("type", "=", "call.reviewed").execute();
    expect(events).toHaveLength(1);
    const body = JSON.parse(events[0].payload);
    expect(body.data.call.call_id).toBe(flagged);
    expect(body.data.review).toMatchObject({ reviewed_by: "rita@acme.test", report_version: 1, alerts: [{ index, decision: "confirmed" }] });
    expect(events[0].payload).not.toContain("clear guarantee");
    const audit = await listAuditEntries(h.s.store.db, { companyId: h.acme.id, limit: 1000 });
    expect(audit.find((a) => a.action === "alert.review")).toMatchObject({ actor_type: "user", actor: "rita@acme.test", call_id: flagged });
    expect(audit.find((a) => a.action === "call.review")).toMatchObject({ actor_type: "user", call_id: flagged });
  });

  it("another company's reviewer sees none of it: 404 for the call, its audio and its actions", async () => {
    const b = await signedIn("olga@other.test");
    const list = await (await b.fetch("/app/calls")).text();
    expect(list).toContain("No calls match.");
    expect(await (await b.fetch("/app/calls?q=zeppelin")).text()).toContain("No calls match.");
    expect((await b.fetch(`/app/calls/${flagged}`)).status).toBe(404);
    expect((await b.fetch(`/app/calls/${flagged}/audio`, { headers: { range: "bytes=0-10" } })).status).toBe(404);
    const csrf = await b.csrf();
    expect((await b.post(`/app/calls/${flagged}/review`, { _csrf: csrf })).status).toBe(404);
    expect((await b.post(`/app/calls/${flagged}/alerts/0`, { _csrf: csrf, decision: "dismissed" })).status).toBe(404);
    expect((await b.fetch("/app/calls.csv")).status).toBe(200);
    expect((await (await b.fetch("/app/calls.csv")).text()).trim().split("\r\n")).toHaveLength(1);
  });

  it("dashboard: SVG charts per week and per rep", async () => {
    const b = await signedIn();
    const page = await (await b.fetch("/app/dashboard")).text();
    expect(page).toContain('<svg role="img" aria-label="Calls per week"');
    expect(page).toContain('aria-label="Average score per rep"');
    expect(page).toMatch(/<td>Tony<\/td><td class="num">1<\/td>/);
  });

  it("logout ends the session (CSRF required), and a disabled user's session stops working", async () => {
    const b = await signedIn();
    const csrf = await b.csrf();
    const cookie = b.cookies.get("callreview_session")!;
    expect((await b.post("/app/logout", {})).status).toBe(403);
    const out = await b.post("/app/logout", { _csrf: csrf });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/app/login");
    const again = await fetch(`${h.base}/app/calls`, { headers: { cookie: `callreview_session=${cookie}`, accept: "text/html" }, redirect: "manual" });
    expect(again.status).toBe(303);

    const c = await signedIn();
    const { disableUser } = await import("../../src/console/users.js");
    const user = await h.s.store.db.selectFrom("users").select("id").where("email", "=", "rita@acme.test").executeTakeFirstOrThrow();
    await disableUser(h.s.store.db, { type: "cli", id: "cli" }, user.id, new Date());
    expect((await c.fetch("/app/calls")).status).toBe(303);
    expect((await h.browser().login("rita@acme.test")).status).toBe(401);
  });

  it("erasing a call removes its words from the search index", async () => {
    const before = await h.s.store.db
      .selectFrom("transcript_search" as never)
      .select(["call_id" as never])
      .execute();
    expect((before as Array<{ call_id: number }>).map((r) => r.call_id)).toContain(plain);
    const del = await fetch(`${h.base}/v1/calls/${plain}`, { method: "DELETE", headers: { authorization: `Bearer ${h.key}` } });
    expect(del.status).toBe(204);
    const after = await h.s.store.db
      .selectFrom("transcript_search" as never)
      .select(["call_id" as never])
      .execute();
    expect((after as Array<{ call_id: number }>).map((r) => r.call_id)).not.toContain(plain);
    const { sql } = await import("kysely");
    const hits = await sql<{ n: number }>`SELECT count(*) AS n FROM transcript_search WHERE transcript_search MATCH 'greenhouse'`.execute(h.s.store.db);
    expect(Number(hits.rows[0].n)).toBe(0);
  });
});
