import manifestJson from "../../models/manifest.json" with { type: "json" };

/** One known model file (models/manifest.json, imported statically: the executable has no models folder to read). */
export interface ManifestEntry {
  file: string;
  kind: "whisper" | "vad" | "gguf";
  role: string;
  approx_size: string;
  size_bytes: number | null;
  /** Null when no published value was available: verify then checks the header only and says so. */
  sha256: string | null;
  sha1: string | null;
  source: string;
  test_only?: boolean;
}

export const MANIFEST: readonly ManifestEntry[] = manifestJson.models as unknown as ManifestEntry[];

export function manifestEntry(fileName: string): ManifestEntry | undefined {
  return MANIFEST.find((m) => m.file === fileName);
}

/**
 * Preference when several models of a kind are installed: manifest order
 * (best first), then files the manifest does not know, then test-only files.
 */
export function preferenceRank(fileName: string): number {
  const i = MANIFEST.findIndex((m) => m.file === fileName);
  if (i < 0) return 1000;
  return MANIFEST[i].test_only ? 2000 + i : i;
}
