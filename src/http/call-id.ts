import { AppError } from "../errors.js";

/**
 * The {id} path segment. Call ids are positive integers; any other segment
 * ("abc", "0", "-1", "1.5", "007") names no call, so it answers 404 not_found
 * like an id that does not exist — one rule, nothing to learn from probing.
 */
export function parseCallId(raw: string | undefined): number {
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw)) throw new AppError("not_found", `call ${raw ?? ""} not found`);
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) throw new AppError("not_found", `call ${raw} not found`);
  return id;
}
