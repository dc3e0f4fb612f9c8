import type { Command } from "commander";
import { loadConfig, SETTINGS, type Config, type ConfigFlags } from "../src/config.js";
import { isAppError } from "../src/errors.js";
import type { Services } from "../src/services.js";
import { UsageError } from "./exit-codes.js";
import type { Io } from "./io.js";

/** Shared by every command: the Io and how to build Services from the command line. */
export interface CliContext {
  io: Io;
  env: Record<string, string | undefined>;
}

/** Adds the config flags named to a command (the same flags, env names and defaults as src/config.ts). */
export function addConfigOptions(cmd: Command, keys: (keyof Config)[]): Command {
  for (const key of keys) {
    const s = SETTINGS.find((x) => x.key === key)!;
    cmd.option(
      `${s.flag} <value>`,
      `${s.doc} [env ${s.env}, default ${s.default === undefined || s.default === "" || (Array.isArray(s.default) && s.default.length === 0) ? "none" : s.default}]`,
    );
  }
  return cmd;
}

export function configFrom(cmd: Command, ctx: CliContext): Config {
  const opts = cmd.optsWithGlobals() as Record<string, unknown>;
  const flags: ConfigFlags = {};
  for (const s of SETTINGS) {
    const v = opts[s.key];
    if (typeof v === "string" || typeof v === "number") flags[s.key] = v;
  }
  try {
    return loadConfig(flags, ctx.env);
  } catch (e) {
    // Every problem loadConfig finds is a flag or environment value: a usage error (exit code 2).
    if (isAppError(e) && e.code === "invalid_config") throw new UsageError(e.message);
    throw e;
  }
}

/** Opens the store for one command and always closes it. */
export async function withServices<T>(cmd: Command, ctx: CliContext, fn: (s: Services) => Promise<T>): Promise<T> {
  const config = configFrom(cmd, ctx);
  // Loaded here, not at the top: commands without a store (transcribe, models) never pay for the whole service.
  const { createServices } = await import("../src/services.js");
  const services = await createServices({ ...config, logLevel: config.logLevel === "info" ? "warn" : config.logLevel });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

/** Parses a positive integer id argument or option, with a message naming it. */
export function parseId(value: string, what: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1) {
    throw new UsageError(`invalid ${what} "${value}" (expected a positive integer)`);
  }
  return Number(value);
}
