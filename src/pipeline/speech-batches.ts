import { unionSpans, type Span } from "./speech-spans.js";

/**
 * Whisper invents words in long silences, so only speech is transcribed: the
 * voice-activity spans (padded a little) are cut out of the call and laid end to
 * end with a short gap of silence between them, at most `maxSeconds` of audio
 * per engine call (bounded memory on hour-long calls). Each batch keeps the map
 * from its own time back to call time.
 */
export interface BatchPiece {
  /** Call time, seconds. */
  srcStart: number;
  srcEnd: number;
  /** Where the piece starts inside the batch, seconds. */
  at: number;
}

export interface SpeechBatch {
  pieces: BatchPiece[];
  /** Batch length in seconds, gaps included. */
  seconds: number;
}

export const PIECE_PAD_SECONDS = 0.2;
export const PIECE_GAP_SECONDS = 0.5;
export const MAX_BATCH_SECONDS = 300;
/** Silences shorter than this stay in place: cutting them would save less than the gap it adds. */
export const KEEP_SILENCE_SECONDS = 1;

export function planBatches(speech: readonly Span[], durationSeconds: number, maxSeconds = MAX_BATCH_SECONDS): SpeechBatch[] {
  const padded = unionSpans(
    speech.map((s) => ({ start: Math.max(0, s.start - PIECE_PAD_SECONDS), end: Math.min(durationSeconds, s.end + PIECE_PAD_SECONDS) })),
    KEEP_SILENCE_SECONDS,
  );
  // A span longer than a batch is cut into batch-sized pieces.
  const pieces: Span[] = [];
  for (const s of padded) {
    for (let t = s.start; t < s.end; t += maxSeconds) pieces.push({ start: t, end: Math.min(s.end, t + maxSeconds) });
  }
  const batches: SpeechBatch[] = [];
  let current: SpeechBatch | undefined;
  for (const p of pieces) {
    const len = p.end - p.start;
    if (!current || current.seconds + PIECE_GAP_SECONDS + len > maxSeconds) {
      current = { pieces: [], seconds: 0 };
      batches.push(current);
    }
    const at = current.pieces.length === 0 ? 0 : current.seconds + PIECE_GAP_SECONDS;
    current.pieces.push({ srcStart: p.start, srcEnd: p.end, at });
    current.seconds = at + len;
  }
  return batches;
}

/** Maps a time inside the batch back to call time (a time in a gap lands on the end of the piece before it). */
export function toCallTime(batch: SpeechBatch, t: number): number {
  let piece = batch.pieces[0];
  for (const p of batch.pieces) {
    if (p.at <= t) piece = p;
    else break;
  }
  if (!piece) return t;
  return Math.min(piece.srcEnd, piece.srcStart + Math.max(0, t - piece.at));
}

/** The batch's 16 kHz PCM: each piece read from the call, zeros in the gaps. */
export function assembleBatch(batch: SpeechBatch, sampleRate: number, read: (startFrame: number, frames: number) => Int16Array): Int16Array {
  const out = new Int16Array(Math.ceil(batch.seconds * sampleRate) + 1);
  for (const p of batch.pieces) {
    const start = Math.round(p.srcStart * sampleRate);
    const frames = Math.round((p.srcEnd - p.srcStart) * sampleRate);
    const pcm = read(start, frames);
    out.set(pcm.subarray(0, Math.min(pcm.length, out.length - Math.round(p.at * sampleRate))), Math.round(p.at * sampleRate));
  }
  return out;
}
