import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBinary } from "../helpers/binary.js";
import { chromiumPath } from "../helpers/chromium.js";
import { fixture, repoRoot } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

/**
 * The review console in a real browser against the compiled executable, copied
 * alone into an empty directory. Screenshots of each page go to
 * test-artifacts/console/.
 */
const CHROMIUM = chromiumPath();
const ARTIFACTS = path.join(repoRoot, "test-artifacts", "console");
const PASSWORD = "correct horse battery";
const AXE_SOURCE = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

const FLAGGED_VTT = `WEBVTT

00:00:00.500 --> 00:00:04.500
<v Tony>Hi Ellis, Tony from Summit Capital, thanks for taking the call about the zeppelin fund.

00:00:05.000 --> 00:00:09.000
<v Tony>We guarantee a return of nine percent a year, so you cannot lose.

00:00:09.500 --> 00:00:10.800
<v Ellis>That sounds too good to be true.
`;

const PLAIN_VTT = `WEBVTT

00:00:00.500 --> 00:00:04.000
<v Anna>Hi Ben, this call is being recorded. How are things with the greenhouse?

00:00:04.400 --> 00:00:08.000
<v Ben>Fine, thanks. Send me the pricing sheet please, we will decide next week.
`;

const work = tempDir("callreview-console-e2e-");
const bin = path.join(work.dir, "alone", "callreview");
const data = path.join(work.dir, "data");
let serve: { child: ChildProcess; url: string; stop: () => Promise<void> } | undefined;
let browser: Browser | undefined;
let flagged = 0;
let plain = 0;

function run(args: string[], input?: string) {
  const r = spawnSync(bin, ["--data-dir", data, "--models-dir", path.join(work.dir, "models"), ...args], {
    cwd: path.dirname(bin),
    input,
    encoding: "utf8",
    env: cleanEnv(),
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`callreview ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

function cleanEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith("CALLREVIEW_"))) as Record<string, string>;
}

function startServe(): Promise<NonNullable<typeof serve>> {
  const child = spawn(
    bin,
    ["--data-dir", data, "--models-dir", path.join(work.dir, "models"), "serve", "--port", "0", "--pipeline", "placeholder", "--workers", "1"],
    { cwd: path.dirname(bin), env: cleanEnv(), stdio: ["ignore", "ignore", "pipe"] },
  );
  let err = "";
  const exited = new Promise<void>((res) => child.once("exit", () => res()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], stop: async () => void (child.exitCode === null && child.kill("SIGTERM"), await exited) });
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

async function submitCall(key: string, external: string, rep: string, customer: string, vtt: string, repSpeaker: string, audio: boolean): Promise<number> {
  const auth = { authorization: `Bearer ${key}` };
  const created = await fetch(`${serve!.url}/api/v1/calls`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ external_call_id: external, rep_name: rep, customer_name: customer }),
  });
  expect(created.status).toBe(201);
  const id = (await created.json()).call_id as number;
  if (audio) {
    const form = new FormData();
    form.set("file", new Blob([fs.readFileSync(fixture("jfk.wav"))], { type: "audio/wav" }), "jfk.wav");
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await fetch(`${serve!.url}/api/v1/calls/${id}/audio`, { method: "POST", headers: auth, body: form })).status;
      if (status === 409) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
  }
  // The placeholder worker may hold the call for a moment (409 conflict); the import then re-queues it.
  let status = 0;
  for (let i = 0; i < 200 && status !== 202; i++) {
    status = (
      await fetch(`${serve!.url}/api/v1/calls/${id}/transcript?rep_speaker=${repSpeaker}`, {
        method: "POST",
        headers: { ...auth, "content-type": "text/vtt" },
        body: vtt,
      })
    ).status;
    if (status === 409) await new Promise((r) => setTimeout(r, 50));
  }
  expect(status).toBe(202);
  // Until the rules report of the imported transcript is in (the placeholder one does not quote our words).
  for (let i = 0; i < 400; i++) {
    const r = await fetch(`${serve!.url}/api/v1/calls/${id}/report`, { headers: auth });
    if (r.status === 200 && !(await r.text()).includes("Placeholder")) return id;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`no report for call ${id}`);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** axe-core in the page: no serious or critical accessibility violation. */
async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
      }
    ).axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  })) as Array<{ id: string; impact: string }>;
  expect(
    violations.filter((v) => v.impact === "serious" || v.impact === "critical"),
    page.url(),
  ).toEqual([]);
}

describe.skipIf(!CHROMIUM)("review console in Chromium, against the executable", () => {
  beforeAll(async () => {
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.copyFileSync(ensureBinary(), bin);
    fs.chmodSync(bin, 0o755);
    run(["company", "create", "Acme"]);
    run(["company", "create", "Other"]);
    const created = JSON.parse(
      run(["user", "create", "--company", "1", "--email", "rita@acme.test", "--role", "reviewer", "--password-stdin", "--json"], `${PASSWORD}\n`),
    );
    expect(created).toMatchObject({ email: "rita@acme.test", role: "reviewer" });
    run(["user", "create", "--company", "2", "--email", "olga@other.test", "--role", "reviewer", "--password-stdin"], `${PASSWORD}\n`);
    const key = JSON.parse(run(["key", "create", "--company", "1", "--json"])).key as string;
    serve = await startServe();
    flagged = await submitCall(key, "c-1", "Tony", "Ellis", FLAGGED_VTT, "Tony", true);
    plain = await submitCall(key, "c-2", "Anna", "Ben", PLAIN_VTT, "Anna", false);
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ["--autoplay-policy=no-user-gesture-required", "--mute-audio"] });
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    work.cleanup();
  });

  it("a reviewer created with the CLI signs in, finds the flagged call by a word, plays the alert's moment and confirms it", async () => {
    const context = await browser!.newContext({ viewport: { width: 1200, height: 760 }, acceptDownloads: true });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(serve!.url) && !r.url().startsWith("data:")) outside.push(r.url());
    });

    await page.goto(`${serve!.url}/app/calls`);
    expect(new URL(page.url()).pathname).toBe("/app/login");
    await expectAccessible(page);
    await shot(page, "01-login");
    await page.getByLabel("Email").fill("rita@acme.test");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/app\/calls$/);
    await expect.poll(() => page.locator("tbody tr").count()).toBe(2);
    await expectAccessible(page);
    await shot(page, "02-calls");

    // Filtering: calls with a compliance alert.
    await page.getByLabel("Compliance alert").selectOption("1");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/alerts=1/);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await expect.poll(() => page.locator("tbody tr").first().textContent()).toContain("Tony");

    // Search: a word only the flagged call contains.
    await page.getByRole("link", { name: "Clear" }).click();
    await page.getByLabel("Search transcripts").fill("zeppelin");
    await page.getByLabel("Search transcripts").press("Enter");
    await page.waitForURL(/q=zeppelin/);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await shot(page, "03-search");

    // Open the call.
    await page.locator("tbody tr a").first().click();
    await page.waitForURL(new RegExp(`/app/calls/${flagged}$`));
    await expectAccessible(page);
    await shot(page, "04-call");

    // Play the moment of the alert: the audio seeks to 0:05 and plays.
    await page.getByRole("button", { name: "Play the moment of the prohibited guarantee alert at 0:05" }).click();
    await expect.poll(() => page.evaluate(() => (document.getElementById("player") as HTMLAudioElement).currentTime)).toBeGreaterThanOrEqual(5);
    expect(await page.evaluate(() => (document.getElementById("player") as HTMLAudioElement).paused)).toBe(false);
    await expect.poll(() => page.locator("ol.transcript li.playing").count()).toBe(1);
    await shot(page, "05-alert-playing");
    // Clicking a transcript line seeks too.
    await page.getByRole("button", { name: /^Play from 0:09/ }).click();
    await expect.poll(() => page.evaluate(() => (document.getElementById("player") as HTMLAudioElement).currentTime)).toBeGreaterThanOrEqual(9.5);

    // Confirm the alert with a note (keyboard: the note field, then the button).
    const alert = page.locator("ul.alerts li", { hasText: "prohibited guarantee" });
    await alert.getByLabel("Note").fill("guarantee of returns, escalate");
    await alert.getByRole("button", { name: "Confirm alert" }).click();
    await page.waitForURL(/done=alert/);
    await expect.poll(() => page.locator("ul.alerts li", { hasText: "prohibited guarantee" }).locator(".decision").textContent()).toBe("confirmed");
    await shot(page, "06-alert-confirmed");
    await page.getByRole("button", { name: "Mark call reviewed" }).click();
    await page.waitForURL(/done=review/);
    expect(await page.getByRole("status").textContent()).toContain("Call marked reviewed");
    await shot(page, "07-call-reviewed");

    // CSV export of the reviewed calls.
    await page.goto(`${serve!.url}/app/calls?review=reviewed`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    const csv = fs
      .readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(csv[0]).toMatch(/^call_id,external_call_id,/);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(new RegExp(`^${flagged},c-1,.*,reviewed,`));

    // Dashboard.
    await page.getByRole("link", { name: "Dashboard" }).click();
    await page.waitForURL(/\/app\/dashboard$/);
    expect(await page.locator("svg[role=img]").count()).toBeGreaterThanOrEqual(8);
    await expectAccessible(page);
    await shot(page, "08-dashboard");

    // Logout.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/app\/login$/);
    await page.goto(`${serve!.url}/app/calls`);
    expect(new URL(page.url()).pathname).toBe("/app/login");

    expect(outside).toEqual([]);
    await context.close();
  }, 120_000);

  it("a reviewer of another company is refused the call (404) and does not find it", async () => {
    const context = await browser!.newContext({ viewport: { width: 1200, height: 760 } });
    const page = await context.newPage();
    await page.goto(`${serve!.url}/app/login`);
    await page.getByLabel("Email").fill("olga@other.test");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/app\/calls$/);
    expect(await page.textContent("main")).toContain("No calls match.");
    const res = await page.goto(`${serve!.url}/app/calls/${flagged}`);
    expect(res!.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Not found");
    await shot(page, "09-other-company-404");
    const audio = await page.goto(`${serve!.url}/app/calls/${plain}/audio`);
    expect(audio!.status()).toBe(404);
    await context.close();
  }, 60_000);
});
