import { sql } from "kysely";
import type { DbOrTx } from "./db.js";

/**
 * Full-text search over transcripts, SQLite FTS5. Every statement that knows
 * about FTS5 lives here, behind index/remove/search, so another store (the
 * PostgreSQL one, with a tsvector) can offer the same three functions.
 *
 * The index follows the transcripts table through triggers, so every path that
 * writes or deletes a transcript (transcription, import, redaction, retention,
 * erasure) keeps it in sync without knowing about it. One index row per
 * transcript row: rowid = transcripts.id.
 */
export const SQLITE_SEARCH_SETUP: string[] = [
  // The text is the segments' text joined; call_id rides along for the join back to calls.
  `CREATE VIRTUAL TABLE transcript_search USING fts5(body, call_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')`,
  // Deleting a row removes its terms from the index at once instead of leaving them until a merge: erasure
  // (docs/lifecycle.md) must not leave a call's words in the file.
  `INSERT INTO transcript_search (transcript_search, rank) VALUES ('secure-delete', 1)`,
  `CREATE TRIGGER transcript_search_insert AFTER INSERT ON transcripts BEGIN
     INSERT INTO transcript_search (rowid, body, call_id) VALUES (NEW.id, (SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(NEW.segments)), NEW.call_id);
   END`,
  `CREATE TRIGGER transcript_search_update AFTER UPDATE OF segments ON transcripts BEGIN
     DELETE FROM transcript_search WHERE rowid = OLD.id;
     INSERT INTO transcript_search (rowid, body, call_id) VALUES (NEW.id, (SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(NEW.segments)), NEW.call_id);
   END`,
  `CREATE TRIGGER transcript_search_delete AFTER DELETE ON transcripts BEGIN
     DELETE FROM transcript_search WHERE rowid = OLD.id;
   END`,
  `INSERT INTO transcript_search (rowid, body, call_id)
     SELECT id, (SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(segments)), call_id FROM transcripts`,
];

/** (Re)indexes one transcript row; the triggers do this on every write, this repairs by hand. */
export async function indexTranscript(db: DbOrTx, transcriptId: number): Promise<void> {
  await removeTranscript(db, transcriptId);
  await sql`INSERT INTO transcript_search (rowid, body, call_id)
    SELECT id, (SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(segments)), call_id FROM transcripts WHERE id = ${transcriptId}`.execute(
    db,
  );
}

export async function removeTranscript(db: DbOrTx, transcriptId: number): Promise<void> {
  await sql`DELETE FROM transcript_search WHERE rowid = ${transcriptId}`.execute(db);
}

/**
 * The words a user typed, as an FTS5 query: each word quoted (so `"`, `-`,
 * `OR` and friends are plain text), all required, the last one as a prefix.
 * Null when nothing searchable is left.
 */
export function toMatchQuery(input: string): string | null {
  const words = input
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}']+/u)
    .filter((w) => w.replace(/'/g, "").length > 0);
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replace(/"/g, "")}"${i === words.length - 1 ? "*" : ""}`).join(" ");
}

/** A SQL fragment: ids of calls whose transcript matches. Combined into the calls list query. */
export function matchingCallIds(match: string) {
  return sql<number>`(SELECT call_id FROM transcript_search WHERE transcript_search MATCH ${match})`;
}
