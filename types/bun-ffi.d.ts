// The part of Bun's FFI that src/engines/native-stdout.ts uses (present only inside the executable).
declare module "bun:ffi" {
  export type Pointer = number & { __pointer__: null };
  export const FFIType: { ptr: "ptr"; cstring: "cstring"; i32: "i32" };
  export function dlopen(
    path: string,
    symbols: Record<string, { args: string[]; returns: string }>,
  ): { symbols: Record<string, (...args: unknown[]) => any>; close(): void };
  export function ptr(view: ArrayBufferView): Pointer;
  export function toArrayBuffer(p: Pointer, byteOffset?: number, byteLength?: number): ArrayBuffer;
  export const read: { u64(p: Pointer, offset?: number): bigint };
}
