import type { Command } from "commander";
import { createApiKey, listCompanyApiKeys, revokeApiKeyByPublicId, type ApiKeyView } from "../../src/auth/api-keys.js";
import { parseScopes } from "../../src/auth/scopes.js";
import { audit, CLI_ACTOR } from "../../src/lifecycle/audit.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { confirmDestructive } from "../confirm.js";
import { printJson } from "../io.js";
import { printTable } from "../table.js";
import { UsageError } from "../exit-codes.js";

function parseExpiry(v: string): string {
  const ms = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(ms)) throw new UsageError(`invalid --expires-at "${v}" (expected an ISO 8601 date or date-time)`);
  return new Date(ms).toISOString();
}

function status(k: ApiKeyView): string {
  if (k.revoked_at) return `revoked ${k.revoked_at}`;
  if (k.expires_at && Date.parse(k.expires_at) <= Date.now()) return `expired ${k.expires_at}`;
  return k.expires_at ? `active until ${k.expires_at}` : "active";
}

export function keyCommand(program: Command, ctx: CliContext): void {
  const key = program.command("key").description("Manage API keys");
  keyCreateCommand(key, ctx);
  keyListCommand(key, ctx);
  keyRevokeCommand(key, ctx);
}

function keyCreateCommand(key: Command, ctx: CliContext): void {
  key
    .command("create")
    .description("Create an API key; the key is printed once and cannot be shown again")
    .requiredOption("--company <id>", "company the key belongs to")
    .option("--scopes <list>", "comma-separated scopes: calls:write,calls:read,reports:read,calls:delete (default: all but calls:delete)")
    .option("--expires-at <iso>", "expiry date-time (ISO 8601)")
    .option("--name <label>", "a label to recognise the key by")
    .option("--json", "print the key as JSON")
    .action(async (opts: { company: string; scopes?: string; expiresAt?: string; name?: string; json?: boolean }, cmd: Command) => {
      const companyId = parseId(opts.company, "--company");
      const scopes = opts.scopes !== undefined ? parseScopes(opts.scopes) : undefined;
      const expiresAt = opts.expiresAt !== undefined ? parseExpiry(opts.expiresAt) : null;
      const created = await withServices(cmd, ctx, async (s) => {
        const k = await createApiKey(s.store.db, { companyId, scopes, expiresAt, name: opts.name ?? null });
        await audit(s.store.db, CLI_ACTOR, "api_key.create", { companyId, detail: { public_id: k.public_id, scopes: k.scopes } }, s.clock.now());
        return k;
      });
      if (opts.json) {
        printJson(ctx.io, created);
        return;
      }
      ctx.io.out(created.key);
      ctx.io.err(`API key ${created.public_id} for company ${created.company_id}, scopes ${created.scopes.join(",")}. Store it now: it is not shown again.`);
    });
}

function keyListCommand(key: Command, ctx: CliContext): void {
  key
    .command("list")
    .description("List a company's API keys (never their secrets)")
    .requiredOption("--company <id>", "company id")
    .option("--json", "print the keys as JSON")
    .action(async (opts: { company: string; json?: boolean }, cmd: Command) => {
      const companyId = parseId(opts.company, "--company");
      const keys = await withServices(cmd, ctx, (s) => listCompanyApiKeys(s.store.db, companyId));
      if (opts.json) printJson(ctx.io, keys);
      else if (keys.length === 0) ctx.io.out(`Company ${companyId} has no API keys.`);
      else
        printTable(
          ctx.io,
          ["public_id", "scopes", "status", "name"],
          keys.map((k) => [k.public_id, k.scopes.join(","), status(k), k.name]),
        );
    });
}

function keyRevokeCommand(key: Command, ctx: CliContext): void {
  key
    .command("revoke <public_id>")
    .description("Revoke an API key at once")
    .option("-y, --yes", "revoke without asking (required when not on a terminal)")
    .option("--json", "print the key as JSON")
    .action(async (publicId: string, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
      await confirmDestructive(ctx, opts.yes, `revoke API key ${publicId} (clients using it get 401 at once)`);
      const revoked = await withServices(cmd, ctx, async (s) => {
        const k = await revokeApiKeyByPublicId(s.store.db, publicId);
        await audit(s.store.db, CLI_ACTOR, "api_key.revoke", { companyId: k.company_id, detail: { public_id: k.public_id } }, s.clock.now());
        return k;
      });
      if (opts.json) printJson(ctx.io, revoked);
      else ctx.io.out(`Revoked API key ${revoked.public_id} (${revoked.revoked_at})`);
    });
}
