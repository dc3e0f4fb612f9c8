import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "./fixtures.js";

export const binaryPath = path.join(repoRoot, "dist", "callreview");

let built = false;

/** Builds dist/callreview once per test process (a second of bundling), so e2e tests always run the current code. */
/** For hooks that may build the executable: a build takes minutes on a loaded machine, far over the default hook timeout. */
export const BUILD_TIMEOUT_MS = 600_000;

export function ensureBinary(): string {
  if (built && fs.existsSync(binaryPath)) return binaryPath;
  const r = spawnSync(process.execPath, [path.join(repoRoot, "scripts", "build.mjs")], { cwd: repoRoot, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`building the executable failed:\n${r.stdout}\n${r.stderr}`);
  built = true;
  return binaryPath;
}

/** Runs the executable to completion. */
export function runBinary(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; umask?: string } = {},
): { code: number; stdout: string; stderr: string } {
  const [cmd, argv] = withUmask(ensureBinary(), args, opts.umask);
  const r = spawnSync(cmd, argv, { cwd: opts.cwd, env: { ...cleanEnv(), ...opts.env }, encoding: "utf8", timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `callreview serve --port 0` and resolves once it listens (the URL is read from its stderr). */
export function startServeBinary(args: string[], opts: { cwd?: string; env?: Record<string, string>; umask?: string } = {}): Promise<ServeProcess> {
  const [cmd, argv] = withUmask(ensureBinary(), ["serve", "--port", "0", ...args], opts.umask);
  const child = spawn(cmd, argv, { cwd: opts.cwd, env: { ...cleanEnv(), ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${err}`)), 30_000);
    child.stdout!.on("data", () => undefined);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({
          child,
          url: m[1],
          stderr: () => err,
          stop: async (signal = "SIGTERM") => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening:\n${err}`));
    });
  });
}

/** Runs the executable under the given umask (a shell sets it, then becomes the executable: same pid). */
function withUmask(bin: string, args: string[], umask: string | undefined): [string, string[]] {
  if (umask === undefined) return [bin, args];
  return ["/bin/sh", ["-c", `umask ${umask} && exec "$0" "$@"`, bin, ...args]];
}

/** The executable must not depend on the caller's CALLREVIEW_* settings. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("CALLREVIEW_")) env[k] = v;
  return env;
}

/**
 * runBinary without blocking this process: for tests whose in-process receiver or server must keep
 * answering while the command runs (`webhook test`, `backup` while serve is accepting).
 */
export function runBinaryAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CALLREVIEW_")));
    const child = spawn(ensureBinary(), args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Polls a running server until the call's report is a real analysis (not the placeholder), or gives up after `tries` × 100 ms. */
export async function waitForAnalyzedReport(url: string, callId: number, headers: Record<string, string>, tries: number): Promise<any> {
  let report: any;
  for (let i = 0; i < tries; i++) {
    const r = await fetch(`${url}/api/v1/calls/${callId}/report`, { headers });
    if (r.status === 200) {
      report = (await r.json()).report;
      if (!report.summary.startsWith("Placeholder")) break;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  return report;
}

/**
 * A company and an API key made through the executable (`global`: the options naming the store,
 * e.g. `--data-dir <dir>`); fails the caller's test with the CLI's stderr if either step fails.
 */
export function companyAndKeyBinary(global: string[], name = "Acme"): { companyId: number; key: string } {
  const company = runBinary([...global, "company", "create", name, "--json"]);
  if (company.code !== 0) throw new Error(`company create failed: ${company.stderr}`);
  const companyId = JSON.parse(company.stdout).id as number;
  const made = runBinary([...global, "key", "create", "--company", String(companyId), "--json"]);
  if (made.code !== 0) throw new Error(`key create failed: ${made.stderr}`);
  return { companyId, key: JSON.parse(made.stdout).key as string };
}
