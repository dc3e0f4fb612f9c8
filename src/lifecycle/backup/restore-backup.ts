import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { audioPath, audioTempDir, tempPrefix } from "../../audio/store.js";
import { AppError } from "../../errors.js";
import { PRIVATE_DIR_MODE } from "../../store/private-files.js";
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
 * With an audio dir outside the data dir (`--audio-dir`, possibly shared by other installations'
 * processes), the backup's files are added to it by content address and nothing there is removed.
 */
export async function restoreBackup(input: {
  from: string;
  dataDir: string;
  audioDir?: string;
  force: boolean;
  actor: Actor;
}): Promise<BackupManifest & { restored_to: string }> {
  const from = path.resolve(input.from);
  const dataDir = path.resolve(input.dataDir);
  const audioDir = path.resolve(input.audioDir ?? path.join(dataDir, "audio"));
  const ownAudioDir = audioDir === path.join(dataDir, "audio");
  const manifestPath = path.join(from, MANIFEST_FILE);
  if (!fs.existsSync(manifestPath)) throw new AppError("not_found", `${from} holds no ${MANIFEST_FILE}: not a finished callreview backup`);
  const manifest = parseManifest(fs.readFileSync(manifestPath, "utf8"));
  if (!(manifest.schema_version in MIGRATIONS)) {
    throw new AppError(
      "validation_failed",
      `the backup was written by a newer callreview (${manifest.callreview_version}, schema ${manifest.schema_version}); restore it with that version or later`,
    );
  }
  await verifyFiles(from, manifest);

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
    if (!ownAudioDir) for (const f of manifest.audio) await placeAudio(path.join(staging, f.path), audioDir, f.sha256);
    for (const leftover of ["callreview.db", "callreview.db-wal", "callreview.db-shm", ...(ownAudioDir ? ["audio"] : [])])
      await fsp.rm(path.join(dataDir, leftover), { recursive: true, force: true });
    await fsp.rename(path.join(staging, "callreview.db"), path.join(dataDir, "callreview.db"));
    if (ownAudioDir && fs.existsSync(path.join(staging, "audio"))) await fsp.rename(path.join(staging, "audio"), audioDir);
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
  return { ...manifest, restored_to: dataDir };
}

/** Into a shared audio dir the way every writer puts files there: its tmp/, then a rename onto the content address. */
async function placeAudio(file: string, audioDir: string, sha256: string): Promise<void> {
  const target = audioPath(audioDir, sha256);
  if (fs.existsSync(target)) return;
  await fsp.mkdir(audioTempDir(audioDir), { recursive: true, mode: PRIVATE_DIR_MODE });
  await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
  const tmp = path.join(audioTempDir(audioDir), `${tempPrefix()}${Date.now()}-${sha256.slice(0, 16)}.part`);
  try {
    await fsp.copyFile(file, tmp);
    await fsp.rename(tmp, target);
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

/** Every file of the backup against the manifest, before anything is placed. */
async function verifyFiles(from: string, manifest: BackupManifest): Promise<void> {
  for (const f of [manifest.database, ...manifest.audio]) {
    const abs = path.join(from, f.path);
    if (!fs.existsSync(abs)) throw new AppError("validation_failed", `backup file ${f.path} is missing`);
    const size = fs.statSync(abs).size;
    if (size !== f.bytes) throw new AppError("validation_failed", `backup file ${f.path} has ${size} bytes, the manifest says ${f.bytes}`);
    if ((await sha256File(abs)) !== f.sha256) throw new AppError("validation_failed", `backup file ${f.path} does not match its sha256 in the manifest`);
  }
}
