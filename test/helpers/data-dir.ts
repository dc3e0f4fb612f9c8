import fs from "node:fs";
import path from "node:path";

/** Every file of a data dir (database, its WAL, audio), models excluded: what an erasure must leave clean. */
export function dataFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (p !== path.join(dir, "models")) walk(p);
      } else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Files whose bytes contain `phrase` (as UTF-8), relative to `dir`. */
export function filesContaining(dir: string, phrase: string): string[] {
  const needle = Buffer.from(phrase, "utf8");
  return dataFiles(dir)
    .filter((f) => fs.readFileSync(f).includes(needle))
    .map((f) => path.relative(dir, f));
}
