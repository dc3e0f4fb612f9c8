import type { Command } from "commander";
import { AppError } from "../../src/errors.js";
import {
  createWebhookEndpoint,
  listEndpointViews,
  parseEventList,
  removeWebhookEndpoint,
  rotateWebhookSecret,
  setEndpointEnabled,
  type WebhookEndpointView,
} from "../../src/events/endpoints.js";
import { sendTestDelivery } from "../../src/events/test-delivery.js";
import { audit, CLI_ACTOR, type AuditAction } from "../../src/lifecycle/audit.js";
import type { Services } from "../../src/services.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { confirmDestructive } from "../confirm.js";
import { printJson } from "../io.js";
import { printTable } from "../table.js";

function row(e: WebhookEndpointView) {
  const state = e.enabled ? "enabled" : `disabled (${e.disabled_reason ?? "by an admin"})`;
  return [e.id, e.company_id, e.url, state, e.events.join(","), e.previous_secret_expires_at];
}

export function webhookCommand(program: Command, ctx: CliContext): void {
  const webhook = program.command("webhook").description("Manage outbound webhook endpoints (signed event deliveries)");
  webhookAddCommand(webhook, ctx);
  webhookListCommand(webhook, ctx);
  webhookRemoveCommand(webhook, ctx);
  webhookRotateSecretCommand(webhook, ctx);
  webhookEnableDisableCommands(webhook, ctx);
  webhookTestCommand(webhook, ctx);
}

function webhookAddCommand(webhook: Command, ctx: CliContext): void {
  webhook
    .command("add")
    .description("Register an endpoint; its signing secret is printed once and cannot be shown again")
    .requiredOption("--company <id>", "company whose events the endpoint receives")
    .requiredOption("--url <url>", "http:// or https:// URL that receives POSTs")
    .option("--events <list>", "comma-separated event types (default: all)")
    .option("--json", "print the endpoint (with its secret) as JSON")
    .action(async (opts: { company: string; url: string; events?: string; json?: boolean }, cmd: Command) => {
      const companyId = parseId(opts.company, "--company");
      const events = parseEventList(opts.events);
      const created = await withServices(cmd, ctx, async (s) =>
        audited(s, "webhook.add", await createWebhookEndpoint(s.store.db, { companyId, url: opts.url, events }, s.clock.now())),
      );
      if (opts.json) {
        printJson(ctx.io, created);
        return;
      }
      ctx.io.out(created.secret);
      ctx.io.err(
        `Webhook endpoint ${created.id} for company ${created.company_id}: ${created.url} (${created.events.join(",")}). The line above is its signing secret: store it now, it is not shown again.`,
      );
    });
}

function webhookListCommand(webhook: Command, ctx: CliContext): void {
  webhook
    .command("list")
    .description("List webhook endpoints (never their secrets)")
    .option("--company <id>", "only this company's endpoints")
    .option("--json", "print the endpoints as JSON")
    .action(async (opts: { company?: string; json?: boolean }, cmd: Command) => {
      const companyId = opts.company !== undefined ? parseId(opts.company, "--company") : undefined;
      const all = await withServices(cmd, ctx, (s) => listEndpointViews(s.store.db, companyId, s.clock.now()));
      if (opts.json) printJson(ctx.io, all);
      else if (all.length === 0) ctx.io.out("No webhook endpoints. Add one with: callreview webhook add --company <id> --url <url>");
      else printTable(ctx.io, ["id", "company", "url", "state", "events", "old_secret_until"], all.map(row));
    });
}

function webhookRemoveCommand(webhook: Command, ctx: CliContext): void {
  webhook
    .command("remove <id>")
    .description("Remove an endpoint: it receives nothing more and its unsent deliveries end as failed")
    .option("-y, --yes", "remove without asking (required when not on a terminal)")
    .option("--json", "print the removed endpoint as JSON")
    .action(async (idArg: string, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "endpoint id");
      await confirmDestructive(ctx, opts.yes, `remove webhook endpoint ${id} (its unsent deliveries end as failed)`);
      const r = await withServices(cmd, ctx, async (s) => {
        const removed = await removeWebhookEndpoint(s.store.db, id, s.clock.now());
        await audited(s, "webhook.remove", removed.endpoint);
        return removed;
      });
      if (opts.json) printJson(ctx.io, { ...r.endpoint, removed: true, cancelled_deliveries: r.cancelled });
      else ctx.io.out(`Removed webhook endpoint ${id} (${r.cancelled} unsent deliveries marked failed)`);
    });
}

function webhookRotateSecretCommand(webhook: Command, ctx: CliContext): void {
  webhook
    .command("rotate-secret <id>")
    .description("Issue a new signing secret (printed once); the old one keeps signing alongside it for 24 h")
    .option("--json", "print the endpoint (with its new secret) as JSON")
    .action(async (idArg: string, opts: { json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "endpoint id");
      const rotated = await withServices(cmd, ctx, async (s) => audited(s, "webhook.rotate_secret", await rotateWebhookSecret(s.store.db, id, s.clock.now())));
      if (opts.json) {
        printJson(ctx.io, rotated);
        return;
      }
      ctx.io.out(rotated.secret);
      ctx.io.err(
        `New signing secret for webhook endpoint ${id} (line above; not shown again). Until ${rotated.previous_secret_expires_at} each delivery carries two v1 signatures: new and old.`,
      );
    });
}

function webhookEnableDisableCommands(webhook: Command, ctx: CliContext): void {
  for (const [name, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    webhook
      .command(`${name} <id>`)
      .description(
        enabled
          ? "Re-enable an endpoint (e.g. after a 410 disabled it); its waiting deliveries resume"
          : "Stop sending to an endpoint; its deliveries wait until it is enabled",
      )
      .option("--json", "print the endpoint as JSON")
      .action(async (idArg: string, opts: { json?: boolean }, cmd: Command) => {
        const id = parseId(idArg, "endpoint id");
        const view = await withServices(cmd, ctx, async (s) =>
          audited(
            s,
            enabled ? "webhook.enable" : "webhook.disable",
            await setEndpointEnabled(s.store.db, id, enabled, enabled ? null : "disabled by an admin", s.clock.now()),
          ),
        );
        if (opts.json) printJson(ctx.io, view);
        else ctx.io.out(`${enabled ? "Enabled" : "Disabled"} webhook endpoint ${id}`);
      });
  }
}

function webhookTestCommand(webhook: Command, ctx: CliContext): void {
  webhook
    .command("test <id>")
    .description("Send a signed sample call.received (data.test = true) now and print the receiver's answer")
    .option("--json", "print the result as JSON")
    .action(async (idArg: string, opts: { json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "endpoint id");
      const r = await withServices(cmd, ctx, (s) => sendTestDelivery(s.store.db, id, { now: s.clock.now() }));
      if (opts.json) printJson(ctx.io, r);
      else ctx.io.out(r.response_status !== null ? `Receiver answered HTTP ${r.response_status} in ${r.duration_ms} ms` : `No answer: ${r.error}`);
      if (!r.ok) throw new AppError("conflict", `test delivery to endpoint ${id} failed: ${r.error}`);
    });
}

/** Records an endpoint change in the audit trail (ids and the URL origin only: a query string may hold a token; never the secret) and hands the endpoint back. */
async function audited<T extends { id: number; company_id: number; url: string }>(s: Services, action: AuditAction, endpoint: T): Promise<T> {
  await audit(
    s.store.db,
    CLI_ACTOR,
    action,
    { companyId: endpoint.company_id, detail: { endpoint_id: endpoint.id, origin: new URL(endpoint.url).origin } },
    s.clock.now(),
  );
  return endpoint;
}
