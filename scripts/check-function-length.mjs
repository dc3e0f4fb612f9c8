#!/usr/bin/env node
// Fails on functions longer than MAX_LINES lines unless the comment block just before the
// function carries `// long-function: <reason>`. Dev-only (TypeScript compiler API).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import ts from "typescript";

const MAX_LINES = 60;
const MARK = /\/\/ long-function: \S/;
const ROOTS = ["src", "cli", "scripts", "test"];

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...ROOTS], { encoding: "utf8" })
  .split("\n")
  .filter((f) => /\.(ts|mts|mjs)$/.test(f) && !f.endsWith(".d.ts") && fs.existsSync(f));

/** The node whose first line the exemption comment must precede: the whole statement for `const f = () => …`. */
function anchorOf(node) {
  let n = node;
  while (
    n.parent &&
    (ts.isVariableDeclaration(n.parent) || ts.isVariableDeclarationList(n.parent) || ts.isVariableStatement(n.parent) || ts.isPropertyAssignment(n.parent))
  )
    n = n.parent;
  return n;
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const a = anchorOf(node);
  if (ts.isVariableStatement(a)) return a.declarationList.declarations[0].name.getText();
  if (ts.isPropertyAssignment(a)) return a.name.getText();
  return "(anonymous)";
}

/** The marker may sit on any line of the comment block directly above the function. */
function markedAbove(lines, start) {
  for (let i = start - 1; i >= 0 && /^\s*\/\//.test(lines[i]); i--) if (MARK.test(lines[i])) return true;
  return false;
}

/** A test suite or case body (`describe(…, () => {…})`, `it.skipIf(…)(…)`): a list of cases, not a function to split. */
function isTestBody(node) {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || !call.arguments.includes(node)) return false;
  return /^(describe|it|test)\b/.test(call.expression.getText());
}

/**
 * Exempt by design: a released migration is never edited (one DDL list per file), and a
 * CLI file's `xCommand(program)` is its command's declaration (options and help text).
 */
function isDeclarationList(file, node) {
  if (file.startsWith("src/store/migrations/")) return true;
  return file.startsWith("cli/commands/") && /Command$/.test(nameOf(node));
}

const problems = [];
let exempt = 0;
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body && !isTestBody(node) && !isDeclarationList(file, node)) {
      const anchor = anchorOf(node);
      const start = source.getLineAndCharacterOfPosition(anchor.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.body.getEnd()).line;
      const length = end - source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      if (length > MAX_LINES) {
        if (markedAbove(lines, start)) exempt++;
        else
          problems.push(
            `${file}:${start + 1} ${nameOf(node)} is ${length} lines (max ${MAX_LINES}; split it, or mark a real exception with "// long-function: <reason>" on the line before)`,
          );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

for (const p of problems) console.error(p);
console.log(`check-function-length: ${files.length} files, ${problems.length} too long, ${exempt} marked exceptions`);
process.exit(problems.length ? 1 : 0);
