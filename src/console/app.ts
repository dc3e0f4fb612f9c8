import { Hono, type Context } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { html } from "hono/html";
import { AUDIO_CONTENT_TYPES, fileResponse } from "../http/byte-range.js";
import { audioPath } from "../audio/store.js";
import { AppError } from "../errors.js";
import { errorResponse, onErrorHandler } from "../http/errors.js";
import { audit } from "../lifecycle/audit.js";
import { getCompanyCall } from "../store/calls.js";
import { allConsoleCalls, callStatuses, companyReps, listConsoleCalls } from "../store/console-calls.js";
import { repWeeks } from "../store/console-dashboard.js";
import { listReports } from "../store/reports.js";
import { alertReviewsOf, callReviewOf } from "../store/reviews.js";
import { latestTranscriptRow, toTranscript } from "../store/transcripts.js";
import { CONSOLE_CSS } from "./assets/console-css.js";
import { CONSOLE_JS } from "./assets/console-js.js";
import { callsCsv } from "./csv.js";
import type { ConsoleEnv } from "./env.js";
import { readFilterParams, toCallFilters } from "./filters.js";
import { page } from "./layout.js";
import { LoginThrottle } from "./login-throttle.js";
import { callPage } from "./pages/call.js";
import { callsPage, PAGE_SIZE } from "./pages/calls.js";
import { dashboardPage } from "./pages/dashboard.js";
import { loginPage } from "./pages/login.js";
import { actorOf, markCallReviewed, reviewAlert } from "./review.js";
import { clearSessionCookie, cookieOptions, LOGIN_CSRF_COOKIE, newCsrfToken, requireUser, sameToken, setSessionCookie } from "./session.js";
import { signIn, signOut } from "./users.js";
import type { Report } from "../report/schema.js";

const DASHBOARD_WEEKS = 12;

/** Pages and form posts never cached, framed or sniffed; only our own scripts, styles and media. */
const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
};

function parseId(v: string): number {
  if (!/^\d{1,15}$/.test(v)) throw new AppError("not_found", `call ${v} not found`);
  return Number(v);
}

/** Only same-site console paths: a `next` pointing elsewhere would make the login an open redirect. */
function safeNext(next: string | undefined): string {
  return next && /^\/app\/[^/\\]/.test(next) ? next : "/app/calls";
}

async function formField(c: Context, name: string): Promise<string | undefined> {
  const body = await c.req.parseBody();
  const v = body[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * The review console under /app (docs/console.md): server-rendered HTML pages
 * with one small script, every asset compiled in. Every query is scoped to
 * the signed-in user's company; another company's call is a 404.
 */
export function createConsoleApp(): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.use("*", async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(k, v);
  });
  app.onError(consoleError);
  addAssetRoutes(app);
  addSignInRoutes(app, new LoginThrottle());
  app.use("*", requireUser);
  app.post("/logout", async (c) => {
    await signOut(c.get("services").store.db, c.get("sessionToken"));
    clearSessionCookie(c);
    return c.redirect("/app/login", 303);
  });
  app.get("/", (c) => c.redirect("/app/calls", 303));
  addCallListRoutes(app);
  addCallRoutes(app);
  app.get("/dashboard", async (c) => {
    const s = c.get("services");
    const user = c.get("user");
    const since = new Date(s.clock.now().getTime() - DASHBOARD_WEEKS * 7 * 86_400_000).toISOString().slice(0, 10);
    const cells = await repWeeks(s.store.db, user.company_id, since);
    return c.html(dashboardPage({ user, csrf: user.csrf_token, cells, weeks: DASHBOARD_WEEKS }));
  });
  return app;
}

/** An error on a page a browser asked for is an HTML page; anything else gets the API's JSON error. */
function consoleError(err: Error, c: Context<ConsoleEnv>): Response | Promise<Response> {
  const e = err instanceof AppError ? err : null;
  if (!e) return onErrorHandler(err, c as never);
  if (c.req.method === "GET" && c.req.header("accept")?.includes("text/html")) {
    const user = c.get("user");
    return c.html(
      page(
        { title: "Error", user, csrf: user?.csrf_token },
        html`<h1>${e.status === 404 ? "Not found" : "Cannot show this page"}</h1><p class="error" role="alert">${e.message}</p><p><a href="/app/calls">Back to calls</a></p>`,
      ),
      e.status as 404,
    );
  }
  return errorResponse(c, e);
}

/** Compiled-in strings, cacheable for an hour. */
function addAssetRoutes(app: Hono<ConsoleEnv>): void {
  app.get("/assets/console.css", (c) => c.body(CONSOLE_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" }));
  app.get("/assets/console.js", (c) => c.body(CONSOLE_JS, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" }));
}

/** The sign-in form and its post: the only pages open without a session. */
function addSignInRoutes(app: Hono<ConsoleEnv>, throttle: LoginThrottle): void {
  app.get("/login", (c) => {
    const csrf = newCsrfToken();
    setCookie(c, LOGIN_CSRF_COOKIE, csrf, cookieOptions(c, 3600));
    return c.html(loginPage({ csrf, next: safeNext(c.req.query("next")) }));
  });
  app.post("/login", (c) => signInPost(c, throttle));
}

async function signInPost(c: Context<ConsoleEnv>, throttle: LoginThrottle): Promise<Response> {
  const s = c.get("services");
  const body = await c.req.parseBody();
  const str = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : "");
  const again = (status: 401 | 403 | 429, error: string) => {
    const csrf = newCsrfToken();
    setCookie(c, LOGIN_CSRF_COOKIE, csrf, cookieOptions(c, 3600));
    return c.html(loginPage({ csrf, next: safeNext(str("next")), email: str("email"), error }), status);
  };
  if (!sameToken(str("_csrf"), getCookie(c, LOGIN_CSRF_COOKIE))) return again(403, "The sign-in form expired; please try again.");
  const email = str("email").trim().toLowerCase();
  const wait = throttle.take(email, s.clock.now().getTime());
  if (wait > 0) {
    c.header("Retry-After", String(wait));
    return again(429, `Too many sign-in attempts; try again in ${Math.ceil(wait / 60)} min.`);
  }
  try {
    const { token } = await signIn(s.store.db, { email, password: str("password"), requestId: c.get("requestId") }, s.clock.now());
    deleteCookie(c, LOGIN_CSRF_COOKIE, { path: "/app" });
    setSessionCookie(c, token);
    return c.redirect(safeNext(str("next")), 303);
  } catch (e) {
    if (e instanceof AppError && e.code === "unauthorized") return again(401, e.message);
    throw e;
  }
}

/** The filtered call list, its CSV export and the list's status poll. */
function addCallListRoutes(app: Hono<ConsoleEnv>): void {
  app.get("/calls", callsList);
  app.get("/calls.csv", async (c) => {
    const s = c.get("services");
    const user = c.get("user");
    const rows = await allConsoleCalls(s.store.db, user.company_id, toCallFilters(readFilterParams((n) => c.req.query(n))));
    const day = s.clock.now().toISOString().slice(0, 10);
    return c.body(callsCsv(rows), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="calls-${day}.csv"`,
      "Cache-Control": "no-store",
    });
  });
  app.get("/calls/status", async (c) => {
    const ids = (c.req.query("ids") ?? "")
      .split(",")
      .filter((x) => /^\d{1,15}$/.test(x))
      .slice(0, PAGE_SIZE)
      .map(Number);
    const user = c.get("user");
    return c.json(await callStatuses(c.get("services").store.db, user.company_id, ids));
  });
}

async function callsList(c: Context<ConsoleEnv>): Promise<Response> {
  const s = c.get("services");
  const user = c.get("user");
  const params = readFilterParams((n) => c.req.query(n));
  const pageNo = Math.max(1, Math.min(1_000_000, Number.parseInt(c.req.query("page") ?? "1", 10) || 1));
  let error: string | undefined;
  let result = { rows: [] as Awaited<ReturnType<typeof listConsoleCalls>>["rows"], total: 0 };
  let status: 200 | 422 = 200;
  try {
    result = await listConsoleCalls(s.store.db, user.company_id, toCallFilters(params), { limit: PAGE_SIZE, offset: (pageNo - 1) * PAGE_SIZE });
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "validation_failed") throw e;
    error = `Check the filters: ${Object.entries(e.errors ?? {})
      .map(([k, v]) => `${k} must be ${v.join(", ")}`)
      .join("; ")}.`;
    status = 422;
  }
  const reps = await companyReps(s.store.db, user.company_id);
  return c.html(callsPage({ user, csrf: user.csrf_token, params, reps, rows: result.rows, total: result.total, page: pageNo, error }), status);
}

/** One call: its page, its audio and the review actions posted from the page. */
function addCallRoutes(app: Hono<ConsoleEnv>): void {
  app.get("/calls/:id", callView);
  app.on(["GET", "HEAD"], "/calls/:id/audio", callAudio);
  app.post("/calls/:id/alerts/:index", async (c) => {
    const s = c.get("services");
    const id = parseId(c.req.param("id"));
    const index = /^\d{1,4}$/.test(c.req.param("index")) ? Number(c.req.param("index")) : -1;
    await reviewAlert(
      s.store.db,
      c.get("user"),
      { callId: id, alertIndex: index, decision: (await formField(c, "decision")) ?? "", note: await formField(c, "note"), requestId: c.get("requestId") },
      s.clock.now(),
    );
    return c.redirect(`/app/calls/${id}?done=alert#alert-${index}`, 303);
  });

  app.post("/calls/:id/review", async (c) => {
    const s = c.get("services");
    const id = parseId(c.req.param("id"));
    await markCallReviewed(s.store.db, c.get("user"), { callId: id, note: await formField(c, "note"), requestId: c.get("requestId") }, s.clock.now());
    return c.redirect(`/app/calls/${id}?done=review`, 303);
  });
}

async function callView(c: Context<ConsoleEnv, "/calls/:id">): Promise<Response> {
  const s = c.get("services");
  const user = c.get("user");
  const call = await getCompanyCall(s.store.db, user.company_id, parseId(c.req.param("id")));
  if (!call) throw new AppError("not_found", `call ${c.req.param("id")} not found`);
  const [transcriptRow, reports, review] = await Promise.all([
    latestTranscriptRow(s.store.db, call.id),
    listReports(s.store.db, call.id),
    callReviewOf(s.store.db, call.id),
  ]);
  const wanted = c.req.query("version");
  const chosen = wanted ? reports.find((r) => String(r.version) === wanted) : reports.at(-1);
  if (wanted && !chosen) throw new AppError("not_found", `report version ${wanted} not found`);
  const transcript = transcriptRow ? toTranscript(transcriptRow) : null;
  const alertReviews = chosen ? await alertReviewsOf(s.store.db, call.id, chosen.version) : [];
  if (transcript) await audit(s.store.db, actorOf(user, c.get("requestId")), "transcript.read", { companyId: call.company_id, callId: call.id }, s.clock.now());
  return c.html(
    callPage({
      user,
      csrf: user.csrf_token,
      call,
      segments: transcript?.segments ?? [],
      metrics: transcript?.metrics ?? null,
      versions: reports.map((r) => ({ version: r.version, analyzer: r.analyzer, created_at: r.created_at })),
      report: chosen ? { version: chosen.version, body: JSON.parse(chosen.report) as Report } : null,
      alertReviews,
      review,
      notice: c.req.query("done") === "alert" ? "Alert decision saved." : c.req.query("done") === "review" ? "Call marked reviewed." : undefined,
    }),
  );
}

async function callAudio(c: Context<ConsoleEnv, "/calls/:id/audio">): Promise<Response> {
  const s = c.get("services");
  const user = c.get("user");
  const call = await getCompanyCall(s.store.db, user.company_id, parseId(c.req.param("id")));
  if (!call || !call.audio_sha256 || call.audio_bytes === null) throw new AppError("not_found", `no audio for call ${c.req.param("id")}`);
  const range = c.req.header("range");
  // One audit entry per playback, not per range request of it.
  if (c.req.method === "GET" && (!range || /^bytes=0-/.test(range)))
    await audit(s.store.db, actorOf(user, c.get("requestId")), "audio.read", { companyId: call.company_id, callId: call.id }, s.clock.now());
  return fileResponse(
    audioPath(s.config.audioDir, call.audio_sha256),
    call.audio_bytes,
    AUDIO_CONTENT_TYPES[call.audio_format ?? ""] ?? "application/octet-stream",
    range,
    c.req.method === "HEAD",
  );
}
