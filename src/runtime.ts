/** True inside the compiled executable (Bun); false under Node. */
export const isBun: boolean = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
