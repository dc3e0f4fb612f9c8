import fs from "node:fs";

/**
 * The data dir holds webhook secrets (in the database) and call recordings:
 * readable by the service's own user only, whatever the umask. Modes are given
 * explicitly at creation (mode bits are only ever removed by the umask) and
 * fixed on files an older version created more openly.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** chmod when the path exists and is more open than `mode`; a file owned by someone else is left as it is. */
export function tightenMode(p: string, mode: number): void {
  try {
    const st = fs.statSync(p);
    if ((st.mode & 0o777 & ~mode) !== 0) fs.chmodSync(p, mode);
  } catch {
    // Missing (nothing to fix) or not ours (EPERM): opening goes on; access is checked where it matters.
  }
}

/**
 * SQLite creates a new database file 0644 (less the umask); its -wal and -shm
 * files copy the database file's mode. So the file is created first, private,
 * and the journal files follow it.
 */
export function preparePrivateDatabase(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR, PRIVATE_FILE_MODE));
  } catch {
    // Let the driver report why the file cannot be opened.
  }
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) tightenMode(f, PRIVATE_FILE_MODE);
}
