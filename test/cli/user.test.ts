import { describe, expect, it } from "vitest";
import { buildProgram } from "../../cli/program.js";
import { runCli } from "../../cli/program.js";
import { verifyPassword } from "../../src/console/password.js";
import { createServices } from "../../src/services.js";
import { silentLogger } from "../../src/logger.js";
import { testConfig, tempDir } from "../helpers/services.js";

/** Runs the CLI in process, with `stdin` as the command's standard input. */
async function run(dir: string, args: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io = { out: (t: string) => void (out += t + "\n"), err: (t: string) => void (err += t + "\n"), stdin: async () => stdin ?? "" };
  const code = await runCli(["--data-dir", dir, "--models-dir", `${dir}/models`, ...args], io, {});
  return { code, out, err };
}

describe("user CLI", () => {
  it("creates a user from --password-stdin, stores only an scrypt hash, lists, resets, disables", async () => {
    const { dir, cleanup } = tempDir();
    try {
      expect((await run(dir, ["company", "create", "Acme"])).code).toBe(0);
      const created = await run(
        dir,
        ["user", "create", "--company", "1", "--email", "Rita@Example.com", "--role", "reviewer", "--password-stdin", "--json"],
        "correct horse battery\n",
      );
      expect(created.code).toBe(0);
      const user = JSON.parse(created.out);
      expect(user).toMatchObject({ id: 1, company_id: 1, email: "rita@example.com", role: "reviewer", disabled: false });
      expect(user).not.toHaveProperty("password");
      expect(created.out).not.toContain("scrypt");

      const s = await createServices(testConfig(dir), { logger: silentLogger });
      try {
        const row = await s.store.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
        expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
        expect(await verifyPassword("correct horse battery", row.password_hash)).toBe(true);
        expect(await verifyPassword("correct horse batter", row.password_hash)).toBe(false);
      } finally {
        await s.close();
      }

      const listed = await run(dir, ["user", "list"]);
      expect(listed.out.split("\n")[0]).toBe("id\tcompany\temail\trole\tstate\tlast_login");
      expect(listed.out).toContain("1\t1\trita@example.com\treviewer\tactive\t-");

      const reset = await run(dir, ["user", "reset-password", "1"]);
      expect(reset.code).toBe(0);
      const oneTime = /One-time password \(shown once\): (\S+)/.exec(reset.out)![1];
      expect(oneTime).toHaveLength(20);

      const refused = await run(dir, ["user", "disable", "1"]);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain("without --yes");
      const disabled = await run(dir, ["user", "disable", "1", "--yes", "--json"]);
      expect(JSON.parse(disabled.out).disabled).toBe(true);
      expect((await run(dir, ["user", "list", "--json"])).out).toContain('"disabled": true');
    } finally {
      cleanup();
    }
  });

  it("refuses bad input with a clear message and writes nothing", async () => {
    const { dir, cleanup } = tempDir();
    try {
      await run(dir, ["company", "create", "Acme"]);
      const cases: Array<[string[], string | undefined, RegExp]> = [
        [["--company", "1", "--email", "not-an-email", "--role", "reviewer", "--password-stdin"], "long enough pw", /invalid email/],
        [["--company", "1", "--email", "a@b.co", "--role", "owner", "--password-stdin"], "long enough pw", /invalid role "owner"/],
        [["--company", "1", "--email", "a@b.co", "--role", "reviewer", "--password-stdin"], "short", /at least 10 characters/],
        [["--company", "1", "--email", "a@b.co", "--role", "reviewer", "--password-stdin"], "", /no password on stdin/],
        [["--company", "9", "--email", "a@b.co", "--role", "reviewer", "--password-stdin"], "long enough pw", /company 9 not found/],
        [["--company", "x", "--email", "a@b.co", "--role", "reviewer"], undefined, /invalid company id "x"/],
      ];
      for (const [args, stdin, message] of cases) {
        const r = await run(dir, ["user", "create", ...args], stdin);
        expect(r.code, args.join(" ")).not.toBe(0);
        expect(r.err).toMatch(message);
      }
      expect(JSON.parse((await run(dir, ["user", "list", "--json"])).out)).toEqual([]);
      expect((await run(dir, ["user", "create", "--company", "1", "--email", "a@b.co", "--role", "admin"])).code).toBe(0);
      const dup = await run(dir, ["user", "create", "--company", "1", "--email", "A@B.co", "--role", "admin"]);
      expect(dup.err).toMatch(/already exists/);
      const missing = await run(dir, ["user", "disable", "7", "--yes"]);
      expect(missing.err).toMatch(/user 7 not found/);
      expect(missing.code).toBe(3);
      expect((await buildProgram()).commands.find((c) => c.name() === "user")?.commands.map((c) => c.name())).toEqual([
        "create",
        "list",
        "disable",
        "reset-password",
      ]);
    } finally {
      cleanup();
    }
  });
});
