import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { modelKindOf, type ModelKind } from "./find.js";
import { manifestEntry, type ManifestEntry } from "./manifest.js";

/**
 * ok           the file matches the manifest's checksum
 * no_checksum  known file, the manifest has no published checksum: header (and size if known) checked only
 * unknown      not in the manifest; its header is valid for its kind
 * bad          wrong header, wrong size or checksum mismatch: `serve` would fail to load it or load something else
 */
export type ModelStatus = "ok" | "no_checksum" | "unknown" | "bad";

export interface ModelCheck {
  file: string;
  name: string;
  kind: ModelKind | "other";
  size_bytes: number;
  status: ModelStatus;
  detail: string;
  sha256: string;
  in_manifest: boolean;
  test_only: boolean;
}

/** ggml files (whisper and Silero VAD) start with the magic 0x67676d6c stored little-endian ("lmgg"); GGUF with "GGUF". */
export function headerProblem(file: string, kind: ModelKind | "other"): string | undefined {
  const head = Buffer.alloc(8);
  let got = 0;
  const fd = fs.openSync(file, "r");
  try {
    got = fs.readSync(fd, head, 0, 8, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (got < 8) return `file is too short to be a model (${got} bytes)`;
  const magic = head.toString("latin1", 0, 4);
  if (kind === "gguf") return magic === "GGUF" ? undefined : "not a GGUF file (bad magic)";
  if (kind === "whisper" || kind === "vad") return magic === "lmgg" ? undefined : "not a ggml model file (bad magic)";
  return undefined;
}

async function hashes(file: string): Promise<{ sha256: string; sha1: string }> {
  const h256 = createHash("sha256");
  const h1 = createHash("sha1");
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    h256.update(chunk as Buffer);
    h1.update(chunk as Buffer);
  }
  return { sha256: h256.digest("hex"), sha1: h1.digest("hex") };
}

export async function checkModelFile(file: string): Promise<ModelCheck> {
  const name = path.basename(file);
  const entry: ManifestEntry | undefined = manifestEntry(name);
  const kind: ModelKind | "other" = entry?.kind ?? modelKindOf(name) ?? "other";
  const size = fs.statSync(file).size;
  const { sha256, sha1 } = await hashes(file);
  const base = { file, name, kind, size_bytes: size, sha256, in_manifest: !!entry, test_only: !!entry?.test_only };
  const header = headerProblem(file, kind);
  if (header) return { ...base, status: "bad", detail: header };
  if (!entry) return { ...base, status: "unknown", detail: "not in the manifest (header looks valid)" };
  if (entry.size_bytes !== null && entry.size_bytes !== size) {
    return { ...base, status: "bad", detail: `size ${size} bytes, manifest says ${entry.size_bytes} (truncated or a different file)` };
  }
  if (entry.sha256) {
    return entry.sha256 === sha256
      ? { ...base, status: "ok", detail: "sha256 matches" }
      : { ...base, status: "bad", detail: `sha256 mismatch (expected ${entry.sha256})` };
  }
  if (entry.sha1) {
    return entry.sha1 === sha1
      ? { ...base, status: "ok", detail: "sha1 matches (published checksum)" }
      : { ...base, status: "bad", detail: `sha1 mismatch (expected ${entry.sha1})` };
  }
  return { ...base, status: "no_checksum", detail: "no checksum in manifest (header checked only)" };
}

/** Every model-like file in the dir (.bin / .gguf), checked. */
export async function checkModelsDir(modelsDir: string): Promise<ModelCheck[]> {
  let names: string[];
  try {
    names = fs.readdirSync(modelsDir).filter((n) => (n.endsWith(".bin") || n.endsWith(".gguf")) && fs.statSync(path.join(modelsDir, n)).isFile());
  } catch {
    return [];
  }
  const out: ModelCheck[] = [];
  for (const n of names.sort()) out.push(await checkModelFile(path.join(modelsDir, n)));
  return out;
}
