// Minimal typing of the parts of bun:sqlite the driver uses; the real module exists only inside Bun.
declare module "bun:sqlite" {
  export class Statement {
    readonly columnNames: string[];
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
    iterate(...params: unknown[]): IterableIterator<unknown>;
    finalize(): void;
  }
  export class Database {
    constructor(filename: string, options?: { create?: boolean; readwrite?: boolean; strict?: boolean });
    prepare(sql: string): Statement;
    exec(sql: string): void;
    close(throwOnError?: boolean): void;
  }
}
