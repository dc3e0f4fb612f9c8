import { AppError } from "../errors.js";

/**
 * Shape limits of every JSON body the API parses (POST /calls, the inbound
 * webhook, JSON transcripts). Size alone does not bound the work: a 1 MiB body
 * can nest 500,000 levels (which overflows the stack of any recursive reader
 * downstream) or hold 100,000 keys. Refused with 422 validation_failed.
 */
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_KEYS = 10_000;

/**
 * Checks the text before it is parsed: the depth is counted on the raw text
 * (brackets outside strings), so a pathological body never reaches JSON.parse.
 */
export function checkJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) throw tooDeep();
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/**
 * Checks a parsed value: key count, and no `__proto__` key anywhere. JSON.parse
 * makes `__proto__` an own key, but every copy made with assignment (schema
 * validators included) turns it into the copy's prototype: the key would
 * silently vanish from what is stored and change what lookups see.
 */
export function checkJsonValue(value: unknown): void {
  let keys = 0;
  const walk = (v: unknown, path: string): void => {
    if (typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${path}[${i}]`);
      return;
    }
    for (const k of Object.keys(v)) {
      const at = path ? `${path}.${k}` : k;
      if (k === "__proto__")
        throw new AppError("validation_failed", "request validation failed", { errors: Object.fromEntries([[at, ["reserved key name"]]]) });
      if (++keys > MAX_JSON_KEYS) {
        throw new AppError("validation_failed", "request validation failed", { errors: { body: [`must have at most ${MAX_JSON_KEYS} object keys in all`] } });
      }
      walk((v as Record<string, unknown>)[k], at);
    }
  };
  walk(value, "");
}

function tooDeep(): AppError {
  return new AppError("validation_failed", "request validation failed", { errors: { body: [`must not nest deeper than ${MAX_JSON_DEPTH} levels`] } });
}
