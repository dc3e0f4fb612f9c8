import fs from "node:fs";

/** Where the samples of a WAV file are and how they are laid out. */
export interface WavInfo {
  /** 1 = integer PCM, 3 = IEEE float, 6/7 = A-law/µ-law; WAVE_FORMAT_EXTENSIBLE is resolved to its sub-format. */
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataOffset: number;
  dataBytes: number;
  /** Sample frames (one sample per channel). */
  frames: number;
}

export class WavError extends Error {
  constructor(
    readonly kind: "not_wav" | "corrupt",
    message: string,
  ) {
    super(message);
    this.name = "WavError";
  }
}

/**
 * Reads the RIFF header and chunk list of a WAV file without reading its samples.
 * A data size of 0 or 0xFFFFFFFF is what streaming recorders write before they
 * know the length: those mean "to the end of the file". Any other size larger
 * than what the file holds means the file was cut short.
 */
export function readWavInfo(file: string): WavInfo {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(12);
    if (fs.readSync(fd, head, 0, 12, 0) < 12 || head.toString("ascii", 0, 4) !== "RIFF" || head.toString("ascii", 8, 12) !== "WAVE") {
      throw new WavError("not_wav", "not a RIFF/WAVE file");
    }
    let pos = 12;
    let fmt: Omit<WavInfo, "dataOffset" | "dataBytes" | "frames"> | undefined;
    const chunk = Buffer.alloc(8);
    while (pos + 8 <= size) {
      fs.readSync(fd, chunk, 0, 8, pos);
      const id = chunk.toString("ascii", 0, 4);
      const len = chunk.readUInt32LE(4);
      const body = pos + 8;
      if (id === "fmt ") {
        if (len < 16 || body + 16 > size) throw new WavError("corrupt", "WAV fmt chunk is cut short");
        const f = Buffer.alloc(Math.min(len, 40));
        fs.readSync(fd, f, 0, f.length, body);
        let format = f.readUInt16LE(0);
        if (format === 0xfffe && f.length >= 26) format = f.readUInt16LE(24);
        fmt = { format, channels: f.readUInt16LE(2), sampleRate: f.readUInt32LE(4), bitsPerSample: f.readUInt16LE(14) };
        if (fmt.channels < 1 || fmt.sampleRate < 1 || fmt.bitsPerSample < 1)
          throw new WavError("corrupt", "WAV fmt chunk has zero channels, rate or sample size");
      } else if (id === "data") {
        if (!fmt) throw new WavError("corrupt", "WAV data chunk comes before its fmt chunk");
        const available = size - body;
        let dataBytes = len;
        if (len === 0 || len === 0xffffffff) dataBytes = available;
        else if (len > available) {
          throw new WavError("corrupt", `WAV file is truncated: its header declares ${len} bytes of samples, the file holds ${available}`);
        }
        const frameBytes = fmt.channels * Math.ceil(fmt.bitsPerSample / 8);
        return { ...fmt, dataOffset: body, dataBytes, frames: Math.floor(dataBytes / frameBytes) };
      }
      pos = body + len + (len % 2);
    }
    throw new WavError("corrupt", fmt ? "WAV file has no data chunk (truncated?)" : "WAV file has no fmt chunk (truncated?)");
  } finally {
    fs.closeSync(fd);
  }
}

/** True when our own reader can use the samples as they are: 16-bit integer PCM at 16 kHz. */
export function isPcm16k(info: WavInfo): boolean {
  return info.format === 1 && info.bitsPerSample === 16 && info.sampleRate === 16_000;
}

/**
 * Reads `count` frames from `start` of a 16-bit PCM WAV as one mono channel:
 * channel `channel`, or the average of all channels when `channel` is "mix".
 * Only the requested window is read, so memory stays bounded on long calls.
 */
export function readPcm16Window(file: string, info: WavInfo, channel: number | "mix", start: number, count: number): Int16Array {
  const first = Math.max(0, Math.min(start, info.frames));
  const n = Math.max(0, Math.min(count, info.frames - first));
  const out = new Int16Array(n);
  if (n === 0) return out;
  const frameBytes = info.channels * 2;
  const fd = fs.openSync(file, "r");
  try {
    // Read in slices so the interleaved buffer never exceeds a few MiB.
    const sliceFrames = 1 << 18;
    const buf = Buffer.alloc(Math.min(n, sliceFrames) * frameBytes);
    for (let done = 0; done < n; ) {
      const take = Math.min(sliceFrames, n - done);
      const got = fs.readSync(fd, buf, 0, take * frameBytes, info.dataOffset + (first + done) * frameBytes);
      const frames = Math.floor(got / frameBytes);
      for (let i = 0; i < frames; i++) {
        const base = i * frameBytes;
        if (channel === "mix") {
          let sum = 0;
          for (let c = 0; c < info.channels; c++) sum += buf.readInt16LE(base + c * 2);
          out[done + i] = Math.round(sum / info.channels);
        } else {
          out[done + i] = buf.readInt16LE(base + channel * 2);
        }
      }
      if (frames < take) break;
      done += take;
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

/** A 16-bit PCM WAV header for `frames` frames (tests and tools build audio with it). */
export function wavHeader(frames: number, channels: number, sampleRate = 16_000): Buffer {
  const dataBytes = frames * channels * 2;
  const h = Buffer.alloc(44);
  h.write("RIFF", 0, "ascii");
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write("WAVE", 8, "ascii");
  h.write("fmt ", 12, "ascii");
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36, "ascii");
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** Writes channels (equal length, 16-bit samples) interleaved into a WAV file. */
export function writeWav(file: string, channels: Int16Array[], sampleRate = 16_000): void {
  const frames = channels[0]?.length ?? 0;
  const body = Buffer.alloc(frames * channels.length * 2);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels.length; c++) body.writeInt16LE(channels[c][i] ?? 0, (i * channels.length + c) * 2);
  }
  fs.writeFileSync(file, Buffer.concat([wavHeader(frames, channels.length, sampleRate), body]));
}
