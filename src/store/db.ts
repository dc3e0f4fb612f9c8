import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.js";

/** A handle repositories accept: the database or an open transaction. */
export type Db = Kysely<Database>;
/** Functions that must run inside a transaction take this type. */
export type Tx = Transaction<Database>;
export type DbOrTx = Db | Tx;
