/**
 * `metadata` is stored with the call and copied into every webhook about it,
 * so it gets its own cap, well under the 1 MiB body cap (README "Known limits").
 */
export const MAX_METADATA_BYTES = 64 * 1024;

export const METADATA_TOO_LARGE = `must be at most ${MAX_METADATA_BYTES} bytes as JSON`;

export function metadataFits(metadata: unknown): boolean {
  return Buffer.byteLength(JSON.stringify(metadata) ?? "") <= MAX_METADATA_BYTES;
}
