import { sql } from "kysely";

/**
 * Full-text search over transcripts on the PostgreSQL store: the same three
 * pieces as search-sqlite.ts (setup, triggers that follow the transcripts
 * table, the matching call ids), with a tsvector and a GIN index. The 'simple'
 * configuration indexes words as written (no stemming), as FTS5's unicode61
 * tokenizer does, so both stores find the same calls for the same words.
 */
const BODY = (segments: string) => `to_tsvector('simple', coalesce((SELECT string_agg(value->>'text', ' ') FROM json_array_elements(${segments}::json)), ''))`;

export const POSTGRES_SEARCH_SETUP: string[] = [
  `CREATE TABLE transcript_search (transcript_id integer PRIMARY KEY, call_id integer NOT NULL, body tsvector NOT NULL)`,
  `CREATE INDEX transcript_search_body ON transcript_search USING gin (body)`,
  // A deleted or rewritten transcript (erasure, redaction, retention) takes its words out of the index in the
  // same transaction.
  `CREATE FUNCTION transcript_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'DELETE' THEN
       DELETE FROM transcript_search WHERE transcript_id = OLD.id;
       RETURN OLD;
     END IF;
     DELETE FROM transcript_search WHERE transcript_id = NEW.id;
     INSERT INTO transcript_search (transcript_id, call_id, body) VALUES (NEW.id, NEW.call_id, ${BODY("NEW.segments")});
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER transcript_search_write AFTER INSERT OR UPDATE OF segments ON transcripts FOR EACH ROW EXECUTE FUNCTION transcript_search_sync()`,
  `CREATE TRIGGER transcript_search_delete AFTER DELETE ON transcripts FOR EACH ROW EXECUTE FUNCTION transcript_search_sync()`,
  `INSERT INTO transcript_search (transcript_id, call_id, body) SELECT t.id, t.call_id, ${BODY("t.segments")} FROM transcripts t`,
];

/** The words of an FTS5 match string built by toMatchQuery, as a tsquery: all required, the last as a prefix. */
export function toTsQuery(match: string): string {
  const words = [...match.matchAll(/"([^"]*)"/g)].map((m) => m[1].replace(/[^\p{L}\p{N}]+/gu, "")).filter((w) => w.length > 0);
  return words.map((w, i) => `${w.toLowerCase()}${i === words.length - 1 ? ":*" : ""}`).join(" & ");
}

/** A SQL fragment: ids of calls whose transcript matches. */
export function matchingCallIdsPostgres(match: string) {
  const query = toTsQuery(match);
  return sql<number>`(SELECT call_id FROM transcript_search WHERE body @@ to_tsquery('simple', ${query}))`;
}
