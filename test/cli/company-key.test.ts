import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli, json } from "../helpers/cli.js";
import { tempDir } from "../helpers/services.js";

describe("company and key commands (in process)", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("creates, lists and updates a company with --json", async () => {
    const created = await cli(["--data-dir", dir, "company", "create", "Acme", "--low-score-threshold", "55", "--json"]);
    expect(created.code).toBe(0);
    const company = json(created.stdout);
    expect(company).toMatchObject({ id: 1, name: "Acme", low_score_threshold: 55, settings: {} });
    expect(company.created_at).toMatch(/Z$/);

    const updated = json((await cli(["--data-dir", dir, "company", "update", "1", "--rep-channel", "right", "--json"])).stdout);
    expect(updated.settings).toEqual({ rep_channel: "right" });

    const list = json((await cli(["--data-dir", dir, "company", "list", "--json"])).stdout);
    expect(list.map((c: { name: string }) => c.name)).toEqual(["Acme"]);
  });

  it("creates a key shown once, lists it without secrets, revokes it", async () => {
    await cli(["--data-dir", dir, "company", "create", "Acme"]);
    const r = await cli(["--data-dir", dir, "key", "create", "--company", "1", "--scopes", "calls:read", "--json"]);
    expect(r.code).toBe(0);
    const key = json(r.stdout);
    expect(key.key).toMatch(/^cc_[0-9A-Za-z]{12}_[0-9A-Za-z]{40}$/);
    expect(key.scopes).toEqual(["calls:read"]);
    const secret = key.key.split("_")[2];

    const list = await cli(["--data-dir", dir, "key", "list", "--company", "1", "--json"]);
    expect(list.stdout).not.toContain(secret);
    expect(json(list.stdout)[0]).toMatchObject({ public_id: key.public_id, revoked_at: null });
    expect(json(list.stdout)[0]).not.toHaveProperty("key");

    const revoked = json((await cli(["--data-dir", dir, "key", "revoke", key.public_id, "--yes", "--json"])).stdout);
    expect(revoked.revoked_at).toMatch(/Z$/);
  });

  it.each([
    [["key", "create", "--company", "42"], /company 42 not found/],
    [["key", "create", "--company", "abc"], /invalid --company "abc"/],
    [["company", "create", "X"], null],
    [["key", "create", "--company", "1", "--scopes", "calls:write,admin"], /unknown scope "admin"/],
    [["key", "create", "--company", "1", "--expires-at", "next week"], /invalid --expires-at/],
    [["key", "revoke", "nope", "--yes"], /API key nope not found/],
    [["company", "update", "7", "--name", "Z"], /company 7 not found/],
    [["company", "create", "Y", "--low-score-threshold", "101"], /invalid --low-score-threshold/],
  ] as const)("fails with one clear stderr line: %j", async (args, message) => {
    await cli(["--data-dir", dir, "company", "create", "First"]);
    const r = await cli(["--data-dir", dir, ...args]);
    if (message === null) {
      expect(r.code).toBe(0);
      return;
    }
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it("refuses an unwritable data dir with a message naming it", async () => {
    const r = await cli(["--data-dir", "/dev/null/inside", "company", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/data dir \/dev\/null\/inside is not writable/);
  });

  it("reads the data dir from CALLREVIEW_DATA_DIR when no flag is given", async () => {
    await cli(["company", "create", "EnvCo"], { CALLREVIEW_DATA_DIR: dir });
    const list = json((await cli(["--data-dir", dir, "company", "list", "--json"])).stdout);
    expect(list[0].name).toBe("EnvCo");
  });
});
