import fsp from "node:fs/promises";
import { audioPath } from "../audio/store.js";
import type { DbOrTx } from "../store/db.js";

/**
 * Stored files are content-addressed and so shared: a file may only be removed
 * when no call refers to it and no request of this process is between storing
 * it and writing its call row. `pin` marks the latter.
 */
const pinned = new Map<string, number>();

export function pinAudio(sha256: string): () => void {
  pinned.set(sha256, (pinned.get(sha256) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const n = (pinned.get(sha256) ?? 1) - 1;
    if (n <= 0) pinned.delete(sha256);
    else pinned.set(sha256, n);
  };
}

/** Removes a stored file that ended up unused (the request failed after storing it). */
export async function discardAudioIfUnused(db: DbOrTx, audioRoot: string, sha256: string): Promise<boolean> {
  if (pinned.has(sha256)) return false;
  const used = await db.selectFrom("calls").select("id").where("audio_sha256", "=", sha256).limit(1).executeTakeFirst();
  if (used) return false;
  await fsp.rm(audioPath(audioRoot, sha256), { force: true });
  return true;
}
