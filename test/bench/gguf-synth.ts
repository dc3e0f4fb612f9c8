/**
 * Writes a synthetic llama GGUF with random Q4_0 weights, for engine speed only
 * (its output is noise). The tokenizer is taken from another GGUF (the
 * stories260K fixture), copied as raw key/value bytes. Default shape: 768 wide,
 * 12 layers, FFN 3072, 12 heads: about 100M parameters in ~60 MB.
 */
import fs from "node:fs";

const GGUF_VERSION = 3;
const ALIGN = 32;
// ggml types.
const F32 = 0;
const Q4_0 = 2;
// GGUF value types.
const T = { u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10, i64: 11, f64: 12 } as const;
const SCALAR_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

export interface SynthShape {
  embd: number;
  layers: number;
  ff: number;
  heads: number;
  context: number;
}
export const SHAPE_100M: SynthShape = { embd: 768, layers: 12, ff: 3072, heads: 12, context: 4096 };

/** The raw bytes of each key/value pair of a GGUF file, by key. */
export function readKvBytes(file: string): Map<string, Buffer> {
  const b = fs.readFileSync(file);
  if (b.toString("latin1", 0, 4) !== "GGUF") throw new Error(`${file} is not a GGUF file`);
  let o = 8;
  o += 8; // tensor count
  const kvCount = Number(b.readBigUInt64LE(o));
  o += 8;
  const out = new Map<string, Buffer>();
  const skipValue = (type: number) => {
    if (type === T.string) o += 8 + Number(b.readBigUInt64LE(o));
    else if (type === T.array) {
      const inner = b.readUInt32LE(o);
      const n = Number(b.readBigUInt64LE(o + 4));
      o += 12;
      for (let i = 0; i < n; i++) skipValue(inner);
    } else o += SCALAR_SIZE[type];
  };
  for (let i = 0; i < kvCount; i++) {
    const start = o;
    const len = Number(b.readBigUInt64LE(o));
    const key = b.toString("utf8", o + 8, o + 8 + len);
    o += 8 + len;
    const type = b.readUInt32LE(o);
    o += 4;
    skipValue(type);
    out.set(key, b.subarray(start, o));
  }
  return out;
}

function str(s: string): Buffer {
  const body = Buffer.from(s, "utf8");
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(body.length));
  return Buffer.concat([len, body]);
}
function kv(key: string, type: number, value: Buffer): Buffer {
  const t = Buffer.alloc(4);
  t.writeUInt32LE(type);
  return Buffer.concat([str(key), t, value]);
}
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const f32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(n);
  return b;
};

interface TensorSpec {
  name: string;
  dims: number[];
  type: number;
}

function tensorBytes(t: TensorSpec): number {
  const n = t.dims.reduce((a, d) => a * d, 1);
  return t.type === F32 ? n * 4 : (n / 32) * 18;
}

/** Deterministic noise (xorshift), so two runs write the same file. */
function fillRandom(buf: Buffer, t: TensorSpec, seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  if (t.type === F32) {
    for (let i = 0; i < buf.length; i += 4) buf.writeFloatLE(1, i); // norms: ones
    return;
  }
  for (let i = 0; i < buf.length; i += 18) {
    buf.writeUInt16LE(0x2000, i); // f16 scale ~0.0078: activations stay finite
    for (let j = 2; j < 18; j += 4) buf.writeUInt32LE(next(), i + j);
  }
}

/** Writes the synthetic model; returns its parameter count. */
export function writeSyntheticLlama(out: string, tokenizerFrom: string, shape: SynthShape = SHAPE_100M): number {
  const src = readKvBytes(tokenizerFrom);
  const tok = [...src.entries()].filter(([k]) => k.startsWith("tokenizer."));
  const vocabKv = src.get("tokenizer.ggml.tokens");
  if (!vocabKv) throw new Error(`${tokenizerFrom} has no tokenizer`);
  const keyLen = Number(vocabKv.readBigUInt64LE(0));
  const vocab = Number(vocabKv.readBigUInt64LE(8 + keyLen + 4 + 4));
  const { embd, layers, ff, heads, context } = shape;
  const tensors = llamaTensors(shape, vocab);
  const kvs = [
    kv("general.architecture", T.string, str("llama")),
    kv("general.name", T.string, str("callreview synthetic llama (random weights)")),
    kv("general.alignment", T.u32, u32(ALIGN)),
    kv("llama.context_length", T.u32, u32(context)),
    kv("llama.embedding_length", T.u32, u32(embd)),
    kv("llama.block_count", T.u32, u32(layers)),
    kv("llama.feed_forward_length", T.u32, u32(ff)),
    kv("llama.attention.head_count", T.u32, u32(heads)),
    kv("llama.attention.head_count_kv", T.u32, u32(heads)),
    kv("llama.rope.dimension_count", T.u32, u32(embd / heads)),
    kv("llama.attention.layer_norm_rms_epsilon", T.f32, f32(1e-5)),
    ...tok.map(([, raw]) => raw),
  ];
  const header = Buffer.alloc(24);
  header.write("GGUF", 0, "latin1");
  header.writeUInt32LE(GGUF_VERSION, 4);
  header.writeBigUInt64LE(BigInt(tensors.length), 8);
  header.writeBigUInt64LE(BigInt(kvs.length), 16);
  const meta = Buffer.concat([header, ...kvs, ...tensorInfos(tensors)]);
  const tmp = `${out}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, "w");
  try {
    fs.writeSync(fd, meta);
    fs.writeSync(fd, Buffer.alloc(Math.ceil(meta.length / ALIGN) * ALIGN - meta.length));
    tensors.forEach((t, i) => {
      const size = tensorBytes(t);
      const buf = Buffer.alloc(Math.ceil(size / ALIGN) * ALIGN);
      fillRandom(buf.subarray(0, size), t, i + 1);
      fs.writeSync(fd, buf);
    });
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, out);
  return tensors.reduce((a, t) => a + t.dims.reduce((x, d) => x * d, 1), 0);
}

/** The tensors of a llama of this shape, in file order. */
function llamaTensors({ embd, layers, ff }: SynthShape, vocab: number): TensorSpec[] {
  const tensors: TensorSpec[] = [
    { name: "token_embd.weight", dims: [embd, vocab], type: Q4_0 },
    { name: "output_norm.weight", dims: [embd], type: F32 },
    { name: "output.weight", dims: [embd, vocab], type: Q4_0 },
  ];
  for (let l = 0; l < layers; l++) {
    const p = `blk.${l}.`;
    tensors.push(
      { name: `${p}attn_norm.weight`, dims: [embd], type: F32 },
      { name: `${p}attn_q.weight`, dims: [embd, embd], type: Q4_0 },
      { name: `${p}attn_k.weight`, dims: [embd, embd], type: Q4_0 },
      { name: `${p}attn_v.weight`, dims: [embd, embd], type: Q4_0 },
      { name: `${p}attn_output.weight`, dims: [embd, embd], type: Q4_0 },
      { name: `${p}ffn_norm.weight`, dims: [embd], type: F32 },
      { name: `${p}ffn_gate.weight`, dims: [embd, ff], type: Q4_0 },
      { name: `${p}ffn_up.weight`, dims: [embd, ff], type: Q4_0 },
      { name: `${p}ffn_down.weight`, dims: [ff, embd], type: Q4_0 },
    );
  }
  return tensors;
}

/** One tensor-info record per tensor: name, dims, type and its aligned offset in the data section. */
function tensorInfos(tensors: TensorSpec[]): Buffer[] {
  let offset = 0;
  const infos: Buffer[] = [];
  for (const t of tensors) {
    const dims = Buffer.alloc(4 + 8 * t.dims.length);
    dims.writeUInt32LE(t.dims.length, 0);
    for (const [i, d] of t.dims.entries()) dims.writeBigUInt64LE(BigInt(d), 4 + 8 * i);
    const tail = Buffer.alloc(12);
    tail.writeUInt32LE(t.type, 0);
    tail.writeBigUInt64LE(BigInt(offset), 4);
    infos.push(Buffer.concat([str(t.name), dims, tail]));
    offset += Math.ceil(tensorBytes(t) / ALIGN) * ALIGN;
  }
  return infos;
}
