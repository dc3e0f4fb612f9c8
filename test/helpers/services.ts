import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, type Config } from "../../src/config.js";
import { silentLogger } from "../../src/logger.js";
import { createServices, type Services } from "../../src/services.js";
import { createCompany } from "../../src/store/companies.js";
import type { Clock } from "../../src/time.js";

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = "callreview-test-"): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Config on a temp data dir and an empty models dir, unaffected by the caller's environment. */
export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  const modelsDir = path.join(dataDir, "models");
  fs.mkdirSync(modelsDir, { recursive: true });
  return { ...loadConfig({ dataDir, modelsDir, pipeline: "placeholder", logLevel: "silent" }, {}), ...overrides };
}

/** Real Services on a real SQLite file in a temp dir. */
export async function testServices(
  overrides: Partial<Config> = {},
  opts: { clock?: Clock } = {},
): Promise<Services & { dir: string; dispose: () => Promise<void> }> {
  const { dir, cleanup } = tempDir();
  const services = await createServices(testConfig(dir, overrides), { logger: silentLogger, clock: opts.clock });
  return {
    ...services,
    dir,
    dispose: async () => {
      await services.close();
      cleanup();
    },
  };
}

/** testServices() plus one company, "Acme": the setup most store, queue and pipeline tests start from. */
export async function servicesWithCompany(overrides: Partial<Config> = {}, opts: { clock?: Clock } = {}) {
  const s = await testServices(overrides, opts);
  const companyId = (await createCompany(s.store.db, { name: "Acme" })).id;
  return { s, companyId };
}
