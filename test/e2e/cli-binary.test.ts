import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBinary, runBinary, startServeBinary } from "../helpers/binary.js";
import { tempDir } from "../helpers/services.js";

// The compiled executable, run from a directory with no node_modules, on bun:sqlite.
describe("the executable", () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ensureBinary();
    ({ dir, cleanup } = tempDir("callreview-e2e-"));
  }, BUILD_TIMEOUT_MS);
  afterAll(() => cleanup());

  it("prints help and version from any directory", () => {
    const help = runBinary(["--help"], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: callreview/);
    expect(help.stdout).toMatch(/company/);
    expect(runBinary(["--version"], { cwd: dir }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("creates a company and a key with --json, lists and revokes the key", () => {
    const data = `${dir}/data`;
    const company = JSON.parse(runBinary(["--data-dir", data, "company", "create", "Acme", "--json"], { cwd: dir }).stdout);
    expect(company).toMatchObject({ id: 1, name: "Acme", low_score_threshold: 60 });
    expect(fs.existsSync(`${data}/callreview.db`)).toBe(true);

    const key = JSON.parse(runBinary(["--data-dir", data, "key", "create", "--company", "1", "--json"], { cwd: dir }).stdout);
    expect(key.key).toMatch(/^cc_[0-9A-Za-z]+_[0-9A-Za-z]{32,}$/);
    const list = runBinary(["--data-dir", data, "key", "list", "--company", "1", "--json"], { cwd: dir });
    expect(list.stdout).not.toContain(key.key.split("_")[2]);
    expect(JSON.parse(list.stdout)).toHaveLength(1);

    const revoked = runBinary(["--data-dir", data, "key", "revoke", key.public_id, "--yes"], { cwd: dir });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`Revoked API key ${key.public_id}`));
  });

  it("reads CALLREVIEW_DATA_DIR and reports errors as one line with a non-zero exit", () => {
    const data = `${dir}/envdata`;
    expect(runBinary(["company", "create", "EnvCo"], { cwd: dir, env: { CALLREVIEW_DATA_DIR: data } }).code).toBe(0);
    const bad = runBinary(["--data-dir", data, "key", "create", "--company", "7"], { cwd: dir });
    // Exit codes (README "CLI"): 3 for something that does not exist, 2 for a bad flag value.
    expect(bad.code).toBe(3);
    expect(bad.stderr.trim()).toBe("callreview: company 7 not found");
    const badPort = runBinary(["--data-dir", data, "serve", "--port", "x"], { cwd: dir });
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/invalid value for --port: "x"/);
  });

  it("doctor reports the bun:sqlite driver and the pipeline mode", () => {
    const r = runBinary(["--data-dir", `${dir}/doc`, "doctor", "--json"], { cwd: dir });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.database.driver).toBe("bun:sqlite");
    expect(doc.pipeline.active).toBe("placeholder");
  });

  it("serves /healthz and exits cleanly on SIGTERM", async () => {
    const srv = await startServeBinary(["--data-dir", `${dir}/srv`], { cwd: dir });
    const res = await fetch(`${srv.url}/healthz`);
    expect(await res.json()).toMatchObject({ status: "ok", pipeline: "placeholder" });
    expect(await srv.stop("SIGTERM")).toBe(0);
  });
});
