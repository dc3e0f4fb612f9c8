import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { authenticateApiKey, createApiKey, hashSecret, listCompanyApiKeys, parseApiKey, revokeApiKeyByPublicId } from "../../src/auth/api-keys.js";
import { parseScopes } from "../../src/auth/scopes.js";
import { createCompany } from "../../src/store/companies.js";
import { openStore, type Store } from "../../src/store/open.js";
import { tempDir } from "../helpers/services.js";

describe("API key lifecycle", () => {
  let store: Store;
  let cleanup: () => void;
  let companyId: number;
  beforeEach(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    store = await openStore(t.dir);
    companyId = (await createCompany(store.db, { name: "Acme" })).id;
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it("stores only a hash of the secret and authenticates the full key", async () => {
    const k = await createApiKey(store.db, { companyId });
    const { publicId, secret } = parseApiKey(k.key)!;
    expect(publicId).toBe(k.public_id);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const row = await store.db.selectFrom("api_keys").selectAll().executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashSecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    const outcome = await authenticateApiKey(store.db, k.key);
    expect(outcome).toMatchObject({ ok: true, key: { public_id: k.public_id, company_id: companyId, scopes: ["calls:write", "calls:read", "reports:read"] } });
  });

  it("tells apart every way a key can be bad", async () => {
    const k = await createApiKey(store.db, { companyId });
    const { publicId, secret } = parseApiKey(k.key)!;
    const wrongSecret = `cc_${publicId}_${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    const unknown = `cc_ZZZZZZZZZZZZ_${secret}`;
    expect(await authenticateApiKey(store.db, undefined)).toEqual({ ok: false, reason: "missing" });
    expect(await authenticateApiKey(store.db, "not-a-key")).toEqual({ ok: false, reason: "malformed" });
    expect(await authenticateApiKey(store.db, `cc_${publicId}`)).toEqual({ ok: false, reason: "malformed" });
    expect(await authenticateApiKey(store.db, unknown)).toEqual({ ok: false, reason: "unknown_key" });
    expect(await authenticateApiKey(store.db, wrongSecret)).toEqual({ ok: false, reason: "wrong_secret" });

    const expiring = await createApiKey(store.db, { companyId, expiresAt: "2030-01-01T00:00:00.000Z" });
    expect((await authenticateApiKey(store.db, expiring.key, new Date("2029-12-31T23:59:59Z"))).ok).toBe(true);
    expect(await authenticateApiKey(store.db, expiring.key, new Date("2030-01-01T00:00:00Z"))).toEqual({ ok: false, reason: "expired" });

    await revokeApiKeyByPublicId(store.db, publicId);
    expect(await authenticateApiKey(store.db, k.key)).toEqual({ ok: false, reason: "revoked" });
  });

  it("records last use, at most once a minute", async () => {
    const k = await createApiKey(store.db, { companyId });
    await authenticateApiKey(store.db, k.key, new Date("2026-01-01T00:00:00Z"));
    await authenticateApiKey(store.db, k.key, new Date("2026-01-01T00:00:30Z"));
    expect((await listCompanyApiKeys(store.db, companyId))[0].last_used_at).toBe("2026-01-01T00:00:00.000Z");
    await authenticateApiKey(store.db, k.key, new Date("2026-01-01T00:01:01Z"));
    expect((await listCompanyApiKeys(store.db, companyId))[0].last_used_at).toBe("2026-01-01T00:01:01.000Z");
  });

  it("keeps the first revocation time and refuses unknown keys and companies", async () => {
    const k = await createApiKey(store.db, { companyId });
    const first = await revokeApiKeyByPublicId(store.db, k.public_id);
    const second = await revokeApiKeyByPublicId(store.db, k.public_id);
    expect(second.revoked_at).toBe(first.revoked_at);
    await expect(revokeApiKeyByPublicId(store.db, "nope")).rejects.toMatchObject({ code: "not_found" });
    await expect(createApiKey(store.db, { companyId: 999 })).rejects.toMatchObject({ code: "not_found" });
  });

  it("parses scope lists strictly", () => {
    expect(parseScopes("calls:read, reports:read,calls:read")).toEqual(["calls:read", "reports:read"]);
    expect(() => parseScopes("calls:read,admin")).toThrow(/unknown scope "admin"/);
    expect(() => parseScopes(" , ")).toThrow(/no scope given/);
  });
});
