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
