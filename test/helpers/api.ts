import { createApiKey } from "../../src/auth/api-keys.js";
import type { Scope } from "../../src/auth/scopes.js";
import type { Config } from "../../src/config.js";
import { createApp } from "../../src/http/app.js";
import { createCompany } from "../../src/store/companies.js";
import type { Clock } from "../../src/time.js";
import { testServices } from "./services.js";

export const BASES = ["/v1", "/api/v1"] as const;

/** A manually advanced clock for rate windows and expiry. */
export function manualClock(start = "2030-01-01T00:00:00.000Z"): Clock & { set(iso: string): void; advance(ms: number): void } {
  let now = Date.parse(start);
  return { now: () => new Date(now), set: (iso) => void (now = Date.parse(iso)), advance: (ms) => void (now += ms) };
}

/** Real services on a temp SQLite file, the real app, one company with an all-scopes key. */
export async function apiHarness(overrides: Partial<Config> = {}, opts: { clock?: Clock } = {}) {
  const s = await testServices(overrides, opts);
  const app = createApp(s);
  const company = await createCompany(s.store.db, { name: "Acme" });
  const key = (await createApiKey(s.store.db, { companyId: company.id })).key;
  const h = {
    s,
    app,
    company,
    key,
    async newCompanyKey(name = "Other", scopes?: Scope[]) {
      const c = await createCompany(s.store.db, { name });
      return { company: c, key: (await createApiKey(s.store.db, { companyId: c.id, scopes })).key };
    },
    async keyWithScopes(scopes: Scope[]) {
      return (await createApiKey(s.store.db, { companyId: company.id, scopes })).key;
    },
    request(path: string, init: RequestInit & { key?: string | null } = {}) {
      const headers = new Headers(init.headers);
      const k = init.key === undefined ? key : init.key;
      if (k !== null && !headers.has("authorization") && !headers.has("x-api-key")) headers.set("authorization", `Bearer ${k}`);
      return app.request(path, { ...init, headers });
    },
    postJson(path: string, body: unknown, init: RequestInit & { key?: string | null } = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      return h.request(path, { ...init, method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
    },
    dispose: () => s.dispose(),
  };
  return h;
}

export type ApiHarness = Awaited<ReturnType<typeof apiHarness>>;
