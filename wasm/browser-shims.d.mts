// Types of wasm/browser-shims.mjs, for the tests that compare it with Node's own.

/** The part of Node's Buffer the browser bundle provides. */
export class Buffer extends Uint8Array {
  static from(value: string | ArrayBuffer | ArrayLike<number>, offsetOrEncoding?: number | string, length?: number): Buffer;
  static allocUnsafe(size: number): Buffer;
  static allocUnsafeSlow(size: number): Buffer;
  static concat(list: readonly Uint8Array[]): Buffer;
  subarray(begin?: number, end?: number): Buffer;
  toString(encoding?: 'utf8' | 'utf-8' | 'latin1', start?: number, end?: number): string;
  equals(other: Uint8Array): boolean;
}

export function setImmediate<A extends unknown[]>(callback: (...args: A) => void, ...args: A): void;
