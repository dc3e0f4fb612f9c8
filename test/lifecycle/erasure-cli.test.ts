import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acceptCall } from "../../src/intake/accept-call.js";
import { silentLogger } from "../../src/logger.js";
import { createServices } from "../../src/services.js";
import { cli, json } from "../helpers/cli.js";
import { filesContaining } from "../helpers/data-dir.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir, testConfig } from "../helpers/services.js";

describe("calls delete / calls purge / audit list (CLI)", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());
  const run = (...args: string[]) => cli(["--data-dir", dir, "--models-dir", path.join(dir, "models"), ...args]);

  it("delete needs --yes, erases the call and its words, and the audit trail shows who did it", async () => {
    await run("company", "create", "Acme");
    const sub = await run(
      "submit",
      fixture("jfk.wav"),
      "--company",
      "1",
      "--customer-name",
      "Persephone Quillfeather",
      "--wait",
      "--json",
      "--pipeline",
      "placeholder",
    );
    expect(sub.code).toBe(0);
    expect((await run("report", "1")).code).toBe(0);
    expect(filesContaining(dir, "Persephone Quillfeather").length).toBeGreaterThan(0);

    const noYes = await run("calls", "delete", "1");
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/without --yes/);
    const del = await run("calls", "delete", "1", "--yes", "--json");
    expect(del.stderr).toBe("");
    expect(json(del.stdout)).toMatchObject({ call_id: 1, deleted: true, audio_removed: true, log_emptied: true, rows: { reports: 1 } });
    expect(filesContaining(dir, "Persephone Quillfeather")).toEqual([]);
    const gone = await run("calls", "show", "1");
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/call 1 not found/);
    expect((await run("calls", "delete", "1", "--yes")).stderr).toMatch(/call 1 not found/);

    const audit = json((await run("audit", "list", "--call", "1", "--json")).stdout);
    expect(audit.map((e: { action: string; actor: string }) => `${e.action}:${e.actor}`)).toEqual(["call.delete:cli", "report.read:cli"]);
    expect(JSON.stringify(audit)).not.toContain("Persephone");
    expect((await run("audit", "list", "--since", "not-a-date")).stderr).toMatch(/invalid --since/);
    const text = (await run("audit", "list", "--company", "1")).stdout;
    expect(text.split("\n")[0]).toBe("at\taction\tactor\tcompany\tcall\trequest\tdetail");
    expect(text).toMatch(/call\.delete\tcli:cli\t1\t1\t/);
  });

  it("purge erases a company's calls before a date; --dry-run only lists them", async () => {
    await run("company", "create", "Acme");
    await run("company", "create", "Other");
    const s = await createServices(testConfig(dir), { logger: silentLogger });
    try {
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "old-1" } }, new Date("2024-01-01T00:00:00Z"));
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "old-2" } }, new Date("2024-02-01T00:00:00Z"));
      await acceptCall(s.store.db, { companyId: 1, intake: "api", fields: { external_call_id: "new-1" } }, new Date("2025-06-01T00:00:00Z"));
      await acceptCall(s.store.db, { companyId: 2, intake: "api", fields: { external_call_id: "other-old" } }, new Date("2024-01-01T00:00:00Z"));
    } finally {
      await s.close();
    }
    expect((await run("calls", "purge", "--company", "1", "--before", "2025-01-01")).stderr).toMatch(/without --yes/);
    expect((await run("calls", "purge", "--company", "1", "--before", "yesterday", "--yes")).stderr).toMatch(/invalid --before "yesterday"/);
    expect((await run("calls", "purge", "--company", "9", "--before", "2025-01-01", "--yes")).stderr).toMatch(/company 9 not found/);

    const dry = json((await run("calls", "purge", "--company", "1", "--before", "2025-01-01", "--dry-run", "--json")).stdout);
    expect(dry).toMatchObject({ dry_run: true, call_ids: [1, 2], before: "2025-01-01T00:00:00.000Z" });
    expect(json((await run("calls", "list", "--json")).stdout)).toHaveLength(4);

    const done = await run("calls", "purge", "--company", "1", "--before", "2025-01-01", "--yes");
    expect(done.stdout).toMatch(/Erased 2 calls of company 1/);
    const left = json((await run("calls", "list", "--json")).stdout).map((c: { external_call_id: string }) => c.external_call_id);
    expect(left).toEqual(["other-old", "new-1"]);
    const audit = json((await run("audit", "list", "--company", "1", "--json")).stdout).map((e: { action: string }) => e.action);
    expect(audit).toEqual(["calls.purge", "call.delete", "call.delete"]);
  });

  it("key create grants calls:delete only when asked; key and webhook changes are audited without secrets", async () => {
    await run("company", "create", "Acme");
    const plain = json((await run("key", "create", "--company", "1", "--json")).stdout);
    expect(plain.scopes).toEqual(["calls:write", "calls:read", "reports:read"]);
    const eraser = json((await run("key", "create", "--company", "1", "--scopes", "calls:read,calls:delete", "--json")).stdout);
    expect(eraser.scopes).toEqual(["calls:read", "calls:delete"]);
    await run("key", "revoke", plain.public_id, "--yes");
    const hook = json((await run("webhook", "add", "--company", "1", "--url", "http://127.0.0.1:9/hook?token=abc", "--json")).stdout);
    await run("webhook", "rotate-secret", String(hook.id));
    const audit = json((await run("audit", "list", "--json")).stdout);
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      "webhook.rotate_secret",
      "webhook.add",
      "api_key.revoke",
      "api_key.create",
      "api_key.create",
    ]);
    const all = JSON.stringify(audit);
    for (const secret of [plain.key, eraser.key, hook.secret, "token=abc"]) expect(all).not.toContain(secret);
    expect(all).toContain(plain.public_id);
  });
});
