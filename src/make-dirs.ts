import fs from "node:fs";
import path from "node:path";

/**
 * `mkdir -p`, one level at a time. Node's own `mkdirSync(dir, {recursive: true})`
 * never returns on some paths: under /proc, mkdir answers ENOENT for a child of a
 * directory that exists, and Node's recursive walk retries that forever at full
 * CPU (`--data-dir /proc/nope`). Here every error ends the walk at once.
 */
export function makeDirs(dir: string, mode?: number): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing) {
    try {
      fs.mkdirSync(d, { mode });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: "ENOTDIR" });
}
