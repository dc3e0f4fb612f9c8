import { Option, type Command } from "commander";
import { intRange } from "../arg-parsers.js";
import { DELIVERY_STATUSES } from "../../src/store/webhook-deliveries.js";
import {
  deliveryWithAttempts,
  listDeliveryDetails,
  parseDeliveryStatus,
  replayDelivery,
  replayFailedSince,
  type DeliveryDetail,
} from "../../src/events/deliveries.js";
import { findWebhookEndpoint } from "../../src/store/webhook-endpoints.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { printJson } from "../io.js";
import { printTable } from "../table.js";
import { UsageError } from "../exit-codes.js";

/** ISO 8601 date(-time), or a duration back from now: 90m, 36h, 2d. */
export function parseSince(v: string, now: Date): string {
  const rel = /^(\d+)\s*([mhd])$/.exec(v.trim());
  if (rel) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as "m" | "h" | "d"];
    return new Date(now.getTime() - Number(rel[1]) * unit).toISOString();
  }
  const ms = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(ms))
    throw new UsageError(`invalid --since "${v}" (expected an ISO 8601 date-time or a duration such as 90m, 36h, 2d)`);
  return new Date(ms).toISOString();
}

function line(d: DeliveryDetail): string {
  const next = d.next_attempt_at ? `\tnext ${d.next_attempt_at}` : "";
  const err = d.last_error ? `\t${d.last_error}` : "";
  return `${d.id}\tcompany ${d.company_id}\tendpoint ${d.endpoint_id}\t${d.event_type}\t${d.event_id}\t${d.status}\tattempts ${d.attempts}\tHTTP ${d.response_status ?? "-"}${next}${err}`;
}

export function deliveriesCommand(program: Command, ctx: CliContext): void {
  const deliveries = program.command("deliveries").description("Inspect and replay outbound webhook deliveries");
  deliveriesListCommand(deliveries, ctx);
  deliveriesShowCommand(deliveries, ctx);
  deliveriesReplayCommand(deliveries, ctx);
}

function deliveriesListCommand(deliveries: Command, ctx: CliContext): void {
  deliveries
    .command("list")
    .description("Recent deliveries, newest first")
    .option("--company <id>", "only this company's deliveries")
    .addOption(new Option("--status <status>", "only deliveries in this status").choices(DELIVERY_STATUSES))
    .addOption(new Option("--limit <n>", "at most this many (1-1000)").argParser(intRange(1, 1000)).default(50))
    .option("--json", "print the deliveries as JSON")
    .action(async (opts: { company?: string; status?: string; limit: number; json?: boolean }, cmd: Command) => {
      const companyId = opts.company !== undefined ? parseId(opts.company, "--company") : undefined;
      const status = opts.status !== undefined ? parseDeliveryStatus(opts.status) : undefined;
      const limit = opts.limit;
      const list = await withServices(cmd, ctx, (s) => listDeliveryDetails(s.store.db, { companyId, status, limit }));
      if (opts.json) printJson(ctx.io, list);
      else if (list.length === 0) ctx.io.out("No deliveries.");
      else
        printTable(
          ctx.io,
          ["id", "company", "endpoint", "event_type", "event_id", "status", "attempts", "http", "next_attempt_at", "last_error"],
          list.map((d) => [
            d.id,
            d.company_id,
            d.endpoint_id,
            d.event_type,
            d.event_id,
            d.status,
            d.attempts,
            d.response_status,
            d.next_attempt_at,
            d.last_error,
          ]),
        );
    });
}

function deliveriesShowCommand(deliveries: Command, ctx: CliContext): void {
  deliveries
    .command("show <delivery_id>")
    .description("One delivery and its attempt log")
    .option("--json", "print the delivery and its attempts as JSON")
    .action(async (idArg: string, opts: { json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "delivery id");
      const r = await withServices(cmd, ctx, (s) => deliveryWithAttempts(s.store.db, id));
      if (opts.json) {
        printJson(ctx.io, r);
        return;
      }
      const rows = r.attempts.map(
        (a) =>
          `  #${a.attempt} ${a.trigger}\t${a.started_at}\tHTTP ${a.response_status ?? "-"}\t${a.in_flight ? "in flight" : `${a.duration_ms} ms`}${a.error ? `\t${a.error}` : ""}${a.next_attempt_at ? `\tnext ${a.next_attempt_at}` : ""}`,
      );
      ctx.io.out([line(r.delivery), ...(rows.length ? rows : ["  no attempts yet"])].join("\n"));
    });
}

function deliveriesReplayCommand(deliveries: Command, ctx: CliContext): void {
  deliveries
    .command("replay [delivery_id]")
    .description(
      "Send a delivery again (new timestamp and signature, same event id): the running server sends it within a second, or `serve` does when it starts",
    )
    .option("--failed", "replay every failed delivery (with --since)")
    .option("--since <time>", "with --failed: deliveries created since this ISO time or duration (e.g. 36h)")
    .option("--company <id>", "with --failed: only this company's deliveries")
    .option("--json", "print the result as JSON")
    .action(async (idArg: string | undefined, opts: { failed?: boolean; since?: string; company?: string; json?: boolean }, cmd: Command) => {
      if (opts.failed) {
        if (idArg !== undefined) throw new UsageError("give either a delivery id or --failed --since <time>, not both");
        if (opts.since === undefined) throw new UsageError("--failed needs --since <time> (an ISO date-time or a duration such as 36h)");
        const companyId = opts.company !== undefined ? parseId(opts.company, "--company") : undefined;
        const r = await withServices(cmd, ctx, (s) => replayFailedSince(s.store.db, parseSince(opts.since!, s.clock.now()), { companyId }, s.clock.now()));
        if (opts.json) printJson(ctx.io, r);
        else
          ctx.io.out(
            `Queued ${r.replayed.length} failed deliveries for immediate delivery${r.skipped.length ? ` (${r.skipped.length} skipped: endpoint removed or in flight)` : ""}`,
          );
        return;
      }
      if (idArg === undefined) throw new UsageError("give a delivery id, or --failed --since <time>");
      if (opts.since !== undefined || opts.company !== undefined) throw new UsageError("--since and --company go with --failed");
      const id = parseId(idArg, "delivery id");
      const { d, endpoint } = await withServices(cmd, ctx, async (s) => {
        const d = await replayDelivery(s.store.db, id, s.clock.now());
        return { d, endpoint: await findWebhookEndpoint(s.store.db, d.endpoint_id) };
      });
      if (opts.json) printJson(ctx.io, d);
      else ctx.io.out(`Delivery ${d.id} (${d.event_type}, ${d.event_id}) is queued for immediate delivery`);
      if (endpoint && endpoint.enabled !== 1) {
        ctx.io.err(
          `Note: webhook endpoint ${endpoint.id} is disabled (${endpoint.disabled_reason ?? "by an admin"}); the delivery goes out once it is enabled: callreview webhook enable ${endpoint.id}`,
        );
      }
    });
}
