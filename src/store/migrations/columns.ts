import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from "kysely";
import { isPostgres } from "../dialect.js";

/**
 * The one column type that differs between the stores: SQLite's
 * INTEGER PRIMARY KEY AUTOINCREMENT (ids never reused) is PostgreSQL's
 * identity column (a sequence: never reused either).
 */
export function addIdColumn<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>): CreateTableBuilder<T, "id"> {
  if (isPostgres(db)) return table.addColumn("id", "integer", (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity());
  return table.addColumn("id", "integer", (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}
