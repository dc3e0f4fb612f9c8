/** Audio container formats we accept, recognised by their first bytes (never by file name or declared type). */
export const AUDIO_FORMATS = ["wav", "mp3", "flac", "ogg", "mp4", "webm"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** Bytes needed from the start of a file to recognise it. */
export const SNIFF_BYTES = 64;

export function sniffAudioFormat(head: Uint8Array): AudioFormat | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "wav";
  if (head.length >= 4 && ascii(0, 4) === "fLaC") return "flac";
  if (head.length >= 4 && ascii(0, 4) === "OggS") return "ogg";
  if (head.length >= 12 && ascii(4, 8) === "ftyp") return "mp4";
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return "webm";
  if (head.length >= 10 && ascii(0, 3) === "ID3") return "mp3";
  if (head.length >= 4 && isMpegAudioFrame(head)) return "mp3";
  return undefined;
}

/** An MPEG audio frame header: 11 sync bits, a valid version, layer III, bitrate and sample-rate index. */
function isMpegAudioFrame(h: Uint8Array): boolean {
  if (h[0] !== 0xff || (h[1] & 0xe0) !== 0xe0) return false;
  const version = (h[1] >> 3) & 0x03;
  const layer = (h[1] >> 1) & 0x03;
  const bitrate = (h[2] >> 4) & 0x0f;
  const sampleRate = (h[2] >> 2) & 0x03;
  return version !== 0x01 && layer === 0x01 && bitrate !== 0x00 && bitrate !== 0x0f && sampleRate !== 0x03;
}
