/**
 * JSON.parse that also remembers the line where every value starts, so a
 * validation error can name the line of the file at fault, not just a path.
 */
export class JsonLineError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

// long-function: one recursive-descent parser whose steps share its cursor; JSON.parse cannot replace it because
// the shipped executable's runtime (Bun) gives no position in its SyntaxError, so tracker files would lose their line numbers.
export function parseJsonWithLines(text: string): { value: unknown; lineOf: (path: (string | number)[]) => number } {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) {
      if (text[i] === "\n") line++;
      i++;
    }
  };
  const fail = (msg: string): never => {
    throw new JsonLineError(line, msg);
  };
  const parseString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      if (text[i] === "\n") fail("unterminated string");
      i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail("bad string escape");
    }
  };
  const parseValue = (path: string): unknown => {
    ws();
    lines.set(path, line);
    const ch = text[i];
    if (ch === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${show(text[i])}`);
        const key = parseString();
        ws();
        if (text[i] !== ":") fail(`expected ":" after "${key}"`);
        i++;
        obj[key] = parseValue(`${path}/${key}`);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return obj;
        }
        fail(`expected "," or "}", found ${show(text[i])}`);
      }
    }
    if (ch === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(`${path}/${arr.length}`));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return arr;
        }
        fail(`expected "," or "]", found ${show(text[i])}`);
      }
    }
    if (ch === '"') return parseString();
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 40));
    if (!m) return fail(`unexpected ${show(ch)}`);
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const value = parseValue("");
  ws();
  if (i < text.length) fail(`unexpected ${show(text[i])} after the end of the document`);
  return {
    value,
    lineOf: (p) => {
      // The deepest recorded ancestor: a missing key is reported at its object.
      for (let n = p.length; n >= 0; n--) {
        const l = lines.get(
          p
            .slice(0, n)
            .map((k) => `/${k}`)
            .join(""),
        );
        if (l !== undefined) return l;
      }
      return 1;
    },
  };
}

function show(ch: string | undefined): string {
  return ch === undefined ? "end of file" : JSON.stringify(ch);
}
