// Argument checks of the wasm backend: the same TypeError / RangeError, with
// the same messages, as csrc/binding/args.cc throws for each argument, so a
// caller bypassing the TypeScript layer meets the same errors on both backends.

/** A TypeError naming the argument (the binding's ThrowType). */
export function typeError(message: string): never {
  throw new TypeError(message);
}

/** A RangeError naming the argument (the binding's ThrowRange). */
export function rangeError(message: string): never {
  throw new RangeError(message);
}

/** The bytes of any ArrayBufferView exactly `size` bytes long, else null. */
export function viewBytes(value: unknown, size: number): Uint8Array | null {
  // A Uint8Array, what the TypeScript layer passes, is used as it is: no new view a call.
  if (value instanceof Uint8Array) return value.length === size ? value : null;
  if (!ArrayBuffer.isView(value) || value.byteLength !== size) return null;
  return new Uint8Array(value.buffer, value.byteOffset, size);
}

type TypedArrayOf<T> = T extends new (...args: never[]) => infer R ? R : never;
type ArrayCtor = typeof Uint8Array | typeof Uint16Array | typeof BigUint64Array | typeof Float64Array;

/** `value` when it is a `Type` of at least minLength elements, else null. */
export function arrayArg<C extends ArrayCtor>(value: unknown, Type: C, minLength: number): TypedArrayOf<C> | null {
  return value instanceof Type && value.length >= minLength ? (value as TypedArrayOf<C>) : null;
}

/** As arrayArg, throwing a TypeError `what` when it is not one. */
export function arrayArgOrThrow<C extends ArrayCtor>(value: unknown, Type: C, minLength: number, what: string): TypedArrayOf<C> {
  return arrayArg(value, Type, minLength) ?? typeError(what);
}

/** An integer from min to max: TypeError "<name> must be a number", RangeError "<name> must be an integer from <min> to <max>". */
export function integerArg(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number') typeError(`${name} must be a number`);
  if (!(value >= min && value <= max) || !Number.isInteger(value)) rangeError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

/**
 * A string argument of at most maxLength characters, written to the memory
 * (`u8`, and `u32` over the same buffer) at `at` (a multiple of 4) as ASCII
 * (any other UTF-16 unit becomes 0x80, which every engine parser rejects),
 * at most maxLength + 1 units of it: more than maxLength is "too long".
 * Returns the length written, or -1 when too long.
 */
export function shortString(value: unknown, maxLength: number, what: string, u8: Uint8Array, u32: Uint32Array, at: number): number {
  if (typeof value !== 'string') typeError(what);
  const n = Math.min(value.length, maxLength + 1);
  // Four units a store, and one test of them all at the end: a FEN's copy
  // is a large share of `new Position(fen)` in the browser.
  let any = 0;
  let i = 0;
  for (let word = at >> 2; i + 4 <= n; i += 4) {
    const a = value.charCodeAt(i);
    const b = value.charCodeAt(i + 1);
    const c = value.charCodeAt(i + 2);
    const d = value.charCodeAt(i + 3);
    any |= a | b | c | d;
    u32[word++] = a | (b << 8) | (c << 16) | (d << 24);
  }
  for (; i < n; i++) {
    const unit = value.charCodeAt(i);
    any |= unit;
    u8[at + i] = unit;
  }
  if (any >= 0x80) {
    for (i = 0; i < n; i++) {
      const unit = value.charCodeAt(i);
      u8[at + i] = unit < 0x80 ? unit : 0x80;
    }
  }
  u8[at + n] = 0;
  return n > maxLength ? -1 : n;
}
