import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { audioPath } from "../../audio/store.js";
import { AppError } from "../../errors.js";
import type { Services } from "../../services.js";
import { openSqlite } from "../../store/driver.js";
import { LATEST_SCHEMA } from "../../store/migrate.js";
import { snapshotInto } from "../../store/snapshot.js";
import { VERSION } from "../../version.js";
import { audit, type Actor } from "../audit.js";
import { BACKUP_FORMAT, describeFile, MANIFEST_FILE, sha256File, type BackupFile, type BackupManifest } from "./manifest.js";

const DB_FILE = "callreview.db";

/**
 * A consistent online backup into an empty (or new) directory: one database
 * snapshot (VACUUM INTO, safe while `serve` writes), then the audio files that
 * snapshot refers to, each verified against its content address, then the
 * manifest. The manifest is written last: a directory without one is not a
 * finished backup.
 */
export async function createBackup(services: Pick<Services, "store" | "config" | "clock">, input: { dir: string; actor: Actor }): Promise<BackupManifest> {
  const dir = path.resolve(input.dir);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new AppError("conflict", `backup dir ${dir} is not empty: choose a new directory`);
  if (path.resolve(services.config.dataDir) === dir) throw new AppError("conflict", "the backup dir must not be the data dir");
  await fsp.mkdir(dir, { recursive: true });
  try {
    return await writeBackup(services, dir, input.actor);
  } catch (e) {
    // Nothing half-written: the directory was empty or new, so whatever is in it now is ours.
    for (const name of fs.readdirSync(dir)) await fsp.rm(path.join(dir, name), { recursive: true, force: true });
    throw e;
  }
}

async function writeBackup(services: Pick<Services, "store" | "config" | "clock">, dir: string, actor: Actor): Promise<BackupManifest> {
  const dbFile = path.join(dir, DB_FILE);
  await snapshotInto(services.store.db, dbFile);

  // What the snapshot holds, read from the snapshot itself (not the live database, which moved on).
  const snap = await openSqlite(dbFile);
  let shas: string[];
  let calls: number;
  try {
    shas = (await snap.db.selectFrom("calls").select("audio_sha256").distinct().where("audio_sha256", "is not", null).execute()).map((r) => r.audio_sha256!);
    calls = Number(
      (
        await snap.db
          .selectFrom("calls")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  } finally {
    await snap.db.destroy();
  }

  const audio: BackupFile[] = [];
  const missing: string[] = [];
  for (const sha of shas.sort()) {
    const rel = `audio/${sha.slice(0, 2)}/${sha}`;
    const target = path.join(dir, rel);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.copyFile(audioPath(services.config.audioDir, sha), target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") {
        missing.push(sha);
        continue;
      }
      throw e;
    }
    const got = await sha256File(target);
    if (got !== sha) throw new AppError("internal_error", `stored audio ${sha} does not match its content hash (got ${got}): the data dir is damaged`);
    audio.push({ path: rel, bytes: fs.statSync(target).size, sha256: sha });
  }

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: 1,
    created_at: services.clock.now().toISOString(),
    callreview_version: VERSION,
    schema_version: LATEST_SCHEMA,
    calls,
    database: await describeFile(dir, DB_FILE),
    audio,
    missing_audio: missing,
  };
  const tmp = path.join(dir, `${MANIFEST_FILE}.part`);
  await fsp.writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  await fsp.rename(tmp, path.join(dir, MANIFEST_FILE));
  await audit(services.store.db, actor, "backup.create", { detail: { calls, audio_files: audio.length } }, services.clock.now());
  return manifest;
}
