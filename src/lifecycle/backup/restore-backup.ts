import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { AppError } from "../../errors.js";
import { MIGRATIONS } from "../../store/migrations/index.js";
import { openStore } from "../../store/open.js";
import { quickCheck } from "../../store/snapshot.js";
import { audit, type Actor } from "../audit.js";
import { MANIFEST_FILE, parseManifest, sha256File, type BackupManifest } from "./manifest.js";

const STAGING = ".restore-staging";

/**
 * Restores a backup into a data dir: every file is verified against the
 * manifest before anything is placed; files are copied into a staging folder
 * inside the data dir, the staged database is opened (migrated if older) and
 * checked, and only then renamed into place, so a failed restore leaves the
 * data dir as it was.
 * A non-empty data dir is refused unless `force`; then its database and audio
 * are replaced (no `serve` may be running on it).
 */
export async function restoreBackup(input: { from: string; dataDir: string; force: boolean; actor: Actor }): Promise<BackupManifest & { restored_to: string }> {
  const from = path.resolve(input.from);
  const dataDir = path.resolve(input.dataDir);
  const manifestPath = path.join(from, MANIFEST_FILE);
  if (!fs.existsSync(manifestPath)) throw new AppError("not_found", `${from} holds no ${MANIFEST_FILE}: not a finished callreview backup`);
  const manifest = parseManifest(fs.readFileSync(manifestPath, "utf8"));
  if (!(manifest.schema_version in MIGRATIONS)) {
    throw new AppError(
      "validation_failed",
      `the backup was written by a newer callreview (${manifest.callreview_version}, schema ${manifest.schema_version}); restore it with that version or later`,
    );
  }
  for (const f of [manifest.database, ...manifest.audio]) {
    const abs = path.join(from, f.path);
    if (!fs.existsSync(abs)) throw new AppError("validation_failed", `backup file ${f.path} is missing`);
    const size = fs.statSync(abs).size;
    if (size !== f.bytes) throw new AppError("validation_failed", `backup file ${f.path} has ${size} bytes, the manifest says ${f.bytes}`);
    if ((await sha256File(abs)) !== f.sha256) throw new AppError("validation_failed", `backup file ${f.path} does not match its sha256 in the manifest`);
  }

  const existing = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((n) => n !== STAGING && n !== "models") : [];
  if (existing.length > 0 && !input.force)
    throw new AppError(
      "conflict",
      `data dir ${dataDir} is not empty (${existing.slice(0, 3).join(", ")}${existing.length > 3 ? ", …" : ""}): restore into an empty dir, or add --force to replace its database and audio`,
    );

  const staging = path.join(dataDir, STAGING);
  await fsp.rm(staging, { recursive: true, force: true });
  await fsp.mkdir(staging, { recursive: true });
  try {
    for (const f of [manifest.database, ...manifest.audio]) {
      const target = path.join(staging, f.path === manifest.database.path ? "callreview.db" : f.path);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.copyFile(path.join(from, f.path), target);
    }
    // Opening migrates an older backup to this version's schema; quick_check confirms the file is sound.
    const store = await openStore(staging);
    try {
      const check = await quickCheck(store.db);
      if (check !== "ok") throw new AppError("validation_failed", `the backup's database fails SQLite's check: ${check}`);
      await audit(store.db, input.actor, "backup.restore", { detail: { backup_created_at: manifest.created_at, calls: manifest.calls } });
    } finally {
      await store.close();
    }
    for (const leftover of ["callreview.db", "callreview.db-wal", "callreview.db-shm", "audio"])
      await fsp.rm(path.join(dataDir, leftover), { recursive: true, force: true });
    await fsp.rename(path.join(staging, "callreview.db"), path.join(dataDir, "callreview.db"));
    if (fs.existsSync(path.join(staging, "audio"))) await fsp.rename(path.join(staging, "audio"), path.join(dataDir, "audio"));
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
  return { ...manifest, restored_to: dataDir };
}
