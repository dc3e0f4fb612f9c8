import type { Command } from "commander";
import { generatePassword, createUser, disableUser, resetPassword } from "../../src/console/users.js";
import { CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { listUsers, toUserView, type UserView } from "../../src/store/users.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { confirmDestructive } from "../confirm.js";
import { printJson, type Io } from "../io.js";
import { printTable } from "../table.js";

/** Tests hand the password in through `stdin`; the executable reads its real stdin. */
type StdinIo = Io & { stdin?: () => Promise<string> };

async function readPassword(ctx: CliContext): Promise<string> {
  const io = ctx.io as StdinIo;
  let text: string;
  if (io.stdin) text = await io.stdin();
  else {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    text = Buffer.concat(chunks).toString("utf8");
  }
  // One line: the trailing newline of `echo` or a here-string is not part of the password.
  const password = text.replace(/\r?\n$/, "");
  if (password.includes("\n")) throw new Error("--password-stdin expects the password on one line");
  if (password.length === 0) throw new Error("--password-stdin: no password on stdin");
  return password;
}

const HEADER = ["id", "company", "email", "role", "state", "last_login"];

function row(u: UserView): string[] {
  const state = u.disabled ? "disabled" : u.locked_until && u.locked_until > new Date().toISOString() ? "locked" : "active";
  return [String(u.id), String(u.company_id), u.email, u.role, state, u.last_login_at ?? "-"];
}

/** `user create|list|disable|reset-password`: console users (docs/console.md). */
export function userCommand(program: Command, ctx: CliContext): void {
  const user = program.command("user").description("Manage review console users");

  user
    .command("create")
    .description("Create a console user; prints a one-time password unless --password-stdin")
    .requiredOption("--company <id>", "company the user belongs to")
    .requiredOption("--email <email>", "sign-in email")
    .requiredOption("--role <role>", "reviewer | manager | admin")
    .option("--password-stdin", "read the password from stdin (one line, at least 10 characters)")
    .option("--json", "print the user as JSON")
    .action(async (opts: { company: string; email: string; role: string; passwordStdin?: boolean; json?: boolean }, cmd: Command) => {
      const companyId = parseId(opts.company, "company id");
      const password = opts.passwordStdin ? await readPassword(ctx) : generatePassword();
      const created = await withServices(cmd, ctx, (s) =>
        createUser(s.store.db, CLI_ACTOR, { companyId, email: opts.email, role: opts.role, password }, s.clock.now()),
      );
      const view = toUserView(created);
      const oneTime = opts.passwordStdin ? {} : { password };
      if (opts.json) printJson(ctx.io, { ...view, ...oneTime });
      else {
        ctx.io.out(`Created user ${view.id} ${view.email} (${view.role}, company ${view.company_id})`);
        if (!opts.passwordStdin) ctx.io.out(`One-time password (shown once): ${password}`);
      }
    });

  user
    .command("list")
    .description("List console users")
    .option("--company <id>", "only this company's users")
    .option("--json", "print the users as JSON")
    .action(async (opts: { company?: string; json?: boolean }, cmd: Command) => {
      const companyId = opts.company !== undefined ? parseId(opts.company, "company id") : undefined;
      const users = (await withServices(cmd, ctx, (s) => listUsers(s.store.db, companyId))).map(toUserView);
      if (opts.json) printJson(ctx.io, users);
      else if (users.length === 0) ctx.io.out("No users yet. Create one with: callreview user create --company <id> --email <email> --role reviewer");
      else printTable(ctx.io, HEADER, users.map(row));
    });

  user
    .command("disable <id>")
    .description("Disable a user and end their sessions")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "print the user as JSON")
    .action(async (idArg: string, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "user id");
      await confirmDestructive(ctx, opts.yes, `disable user ${id} (their sessions end at once)`);
      const u = toUserView(await withServices(cmd, ctx, (s) => disableUser(s.store.db, CLI_ACTOR, id, s.clock.now())));
      if (opts.json) printJson(ctx.io, u);
      else ctx.io.out(`Disabled user ${u.id} ${u.email}`);
    });

  user
    .command("reset-password <id>")
    .description("Set a new password (clears a lockout, ends sessions); prints a one-time password unless --password-stdin")
    .option("--password-stdin", "read the new password from stdin")
    .option("--json", "print the user as JSON")
    .action(async (idArg: string, opts: { passwordStdin?: boolean; json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "user id");
      const password = opts.passwordStdin ? await readPassword(ctx) : generatePassword();
      const u = toUserView(await withServices(cmd, ctx, (s) => resetPassword(s.store.db, CLI_ACTOR, id, password, s.clock.now())));
      const oneTime = opts.passwordStdin ? {} : { password };
      if (opts.json) printJson(ctx.io, { ...u, ...oneTime });
      else {
        ctx.io.out(`New password set for user ${u.id} ${u.email}`);
        if (!opts.passwordStdin) ctx.io.out(`One-time password (shown once): ${password}`);
      }
    });
}
