import fs from "node:fs";
import { createApiKey } from "../../src/auth/api-keys.js";
import { createUser } from "../../src/console/users.js";
import { createApp } from "../../src/http/app.js";
import { CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { listen, type Listener } from "../../src/server.js";
import { createCompany } from "../../src/store/companies.js";
import { fixture } from "../helpers/fixtures.js";
import { testServices } from "../helpers/services.js";

export const PASSWORD = "correct horse battery";

/** A call with a prohibited guarantee at 0:05 and a word only it contains ("zeppelin"). */
export const FLAGGED_VTT = `WEBVTT

00:00:00.500 --> 00:00:04.500
<v Tony>Hi Ellis, Tony from Summit Capital, thanks for taking the call about the zeppelin fund.

00:00:05.000 --> 00:00:09.000
<v Tony>We guarantee a return of nine percent a year.

00:00:09.500 --> 00:00:11.000
<v Ellis>That sounds too good to be true.
`;

export const PLAIN_VTT = `WEBVTT

00:00:00.500 --> 00:00:04.000
<v Anna>Hi Ben, this call is being recorded. How are things with the greenhouse?

00:00:04.400 --> 00:00:08.000
<v Ben>Fine, thanks. Send me the pricing sheet please.
`;

/** A minimal cookie jar: what a browser would send back to /app. */
export class Browser {
  cookies = new Map<string, string>();
  setCookies: string[] = [];
  constructor(private base: string) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    if (!headers.has("accept")) headers.set("accept", "text/html");
    const res = await fetch(this.base + path, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      this.setCookies.push(c);
      const [pair] = c.split(";");
      const [name, ...rest] = pair.split("=");
      const value = rest.join("=");
      if (value === "" || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, { method: "POST", body: new URLSearchParams(form), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
  }

  async login(email: string, password = PASSWORD): Promise<Response> {
    const page = await (await this.fetch("/app/login")).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1];
    return this.post("/app/login", { _csrf: csrf, email, password, next: "/app/calls" });
  }

  /** The CSRF token of the signed-in session, as every page carries it. */
  async csrf(): Promise<string> {
    const page = await (await this.fetch("/app/calls")).text();
    return /name="_csrf" value="([^"]+)"/.exec(page)![1];
  }
}

/** Real services, the real app on 127.0.0.1, two companies with a reviewer each, and calls made through the API. */
export async function consoleHarness() {
  const s = await testServices();
  const listener: Listener = await listen(createApp(s).fetch, { host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${listener.port}`;
  const acme = await createCompany(s.store.db, { name: "Acme" });
  const other = await createCompany(s.store.db, { name: "Other" });
  const key = (await createApiKey(s.store.db, { companyId: acme.id, scopes: ["calls:read", "calls:write", "calls:delete"] })).key;
  const now = new Date();
  await createUser(s.store.db, CLI_ACTOR, { companyId: acme.id, email: "rita@acme.test", role: "reviewer", password: PASSWORD }, now);
  await createUser(s.store.db, CLI_ACTOR, { companyId: other.id, email: "olga@other.test", role: "reviewer", password: PASSWORD }, now);
  const auth = { authorization: `Bearer ${key}` };

  /** Creates a call with the API, optionally attaches the jfk.wav audio, imports a transcript, runs the pipeline. */
  async function call(input: { external: string; rep: string; customer: string; vtt: string; repSpeaker: string; audio?: boolean }): Promise<number> {
    const created = await fetch(`${base}/v1/calls`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ external_call_id: input.external, rep_name: input.rep, customer_name: input.customer }),
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
    const id = (await created.json()).call_id as number;
    if (input.audio) {
      const form = new FormData();
      form.set("file", new Blob([fs.readFileSync(fixture("jfk.wav"))], { type: "audio/wav" }), "jfk.wav");
      const r = await fetch(`${base}/v1/calls/${id}/audio`, { method: "POST", headers: auth, body: form });
      if (r.status !== 200) throw new Error(`audio: ${r.status} ${await r.text()}`);
    }
    const imp = await fetch(`${base}/v1/calls/${id}/transcript?rep_speaker=${input.repSpeaker}`, {
      method: "POST",
      headers: { ...auth, "content-type": "text/vtt" },
      body: input.vtt,
    });
    if (imp.status !== 202) throw new Error(`transcript: ${imp.status} ${await imp.text()}`);
    while (await runOnce(s)) {
      /* until the queue is empty */
    }
    return id;
  }

  return {
    s,
    base,
    acme,
    other,
    key,
    call,
    browser: () => new Browser(base),
    dispose: async () => {
      await listener.close();
      await s.dispose();
    },
  };
}
