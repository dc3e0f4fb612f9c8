import { createHash } from "node:crypto";
import fs from "node:fs";

export const MANIFEST_FILE = "manifest.json";
export const BACKUP_FORMAT = "callreview-backup";

export interface BackupFile {
  /** Relative to the backup dir, with forward slashes. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  created_at: string;
  callreview_version: string;
  schema_version: string;
  calls: number;
  database: BackupFile;
  audio: BackupFile[];
  /** Audio the snapshot names but that was gone by the time it was copied (erased meanwhile). */
  missing_audio: string[];
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function describeFile(root: string, rel: string): Promise<BackupFile> {
  const abs = `${root}/${rel}`;
  return { path: rel, bytes: fs.statSync(abs).size, sha256: await sha256File(abs) };
}

/** A manifest as read from disk, checked field by field: restore trusts nothing it did not verify. */
export function parseManifest(text: string): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(text) as BackupManifest;
  } catch (e) {
    throw new Error(`${MANIFEST_FILE} is not valid JSON: ${(e as Error).message}`);
  }
  const fileOk = (f: BackupFile | undefined) =>
    !!f && typeof f.path === "string" && !f.path.includes("..") && !f.path.startsWith("/") && Number.isInteger(f.bytes) && /^[0-9a-f]{64}$/.test(f.sha256);
  if (m?.format !== BACKUP_FORMAT || m.version !== 1)
    throw new Error(`${MANIFEST_FILE} is not a callreview backup manifest (format ${String(m?.format)}, version ${String(m?.version)})`);
  if (!fileOk(m.database) || !Array.isArray(m.audio) || !m.audio.every(fileOk)) throw new Error(`${MANIFEST_FILE} lists a malformed file entry`);
  return m;
}
