/** Polls `check` until it holds; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += everyMs) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`never happened: ${what}`);
}
