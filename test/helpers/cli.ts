import { runCli } from "../../cli/program.js";

/** Runs the CLI in process with captured output. */
export async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    args,
    { out: (t) => void (stdout += t.endsWith("\n") ? t : `${t}\n`), err: (t) => void (stderr += t.endsWith("\n") ? t : `${t}\n`) },
    env,
  );
  return { code, stdout, stderr };
}

export function json<T = any>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

/** `--data-dir <dir> --models-dir <dir>/models`: a command line on a temp data dir with its own (empty) models dir. */
export function dirArgs(dir: string): string[] {
  return ["--data-dir", dir, "--models-dir", `${dir}/models`];
}

/** `submit <what…> --company 1 --wait --json --pipeline placeholder` on a temp data dir: a call run to its report. */
export function submitWaitArgs(dir: string, ...what: string[]): string[] {
  return [...dirArgs(dir), "submit", ...what, "--company", "1", "--wait", "--json", "--pipeline", "placeholder"];
}
