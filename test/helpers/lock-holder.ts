import { spawn, type ChildProcess } from "node:child_process";
import { repoRoot } from "./fixtures.js";

/**
 * Another process holding the database's write lock: a plain Node child with
 * its own better-sqlite3 connection runs BEGIN IMMEDIATE and keeps the
 * transaction open until release() (it then commits nothing and exits).
 */
export interface LockHolder {
  child: ChildProcess;
  release(): Promise<void>;
}

const SCRIPT = `
const Database = require("better-sqlite3");
const db = new Database(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
process.stdin.on("data", () => { db.exec("ROLLBACK"); db.close(); process.stdout.write("released\\n"); process.exit(0); });
`;

export function holdWriteLock(dbFile: string): Promise<LockHolder> {
  const child = spawn(process.execPath, ["-e", SCRIPT, dbFile], { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("locked\n"))
        resolve({
          child,
          release: async () => {
            if (child.exitCode === null) child.stdin!.write("release\n");
            await exited;
          },
        });
    });
    child.once("exit", (code) => {
      if (!out.includes("locked\n")) reject(new Error(`lock holder exited with ${code}: ${err}`));
    });
  });
}
