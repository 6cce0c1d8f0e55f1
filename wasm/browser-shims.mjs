// What the API's TypeScript takes from Node's globals, for the browser
// bundle (wasm/bundle.mjs injects these where the code names them): the part
// of Buffer the PGN reader and the position slabs use, and setImmediate.
// Everything else Node-only is left out of the browser entry or fails with
// a clear error when called.

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8');
const utf16 = new TextDecoder('utf-16le');

/**
 * Latin-1 as Node has it: one character per byte (the WHATWG 'latin1'
 * decoder maps 0x80-0x9f to cp1252). ASCII, the common case, is the same in
 * UTF-8, whose native decoder is the fast path: decoded as UTF-8, bytes
 * were ASCII when each gave one character and none gave U+FFFD (any other
 * byte joins a longer sequence or decodes as U+FFFD), which is cheaper to
 * see in the string than to scan the bytes for. Otherwise each byte is
 * widened to a UTF-16 unit (little-endian, as every browser's typed arrays).
 */
function latin1(bytes) {
  const text = utf8.decode(bytes);
  if (text.length === bytes.length && !text.includes('\uFFFD')) return text;
  return utf16.decode(new Uint16Array(bytes));
}

/**
 * The UTF-8 bytes of `text`. encodeInto a buffer of the text's length is
 * exact for ASCII, the common case, and several times faster in Chromium
 * than encode() on a large text; anything else is encoded again whole.
 */
function utf8Bytes(text) {
  const out = new Uint8Array(text.length);
  return encoder.encodeInto(text, out).read === text.length ? out : encoder.encode(text);
}

/** Bytes with Buffer's toString and equals; subarray keeps the class. */
export class Buffer extends Uint8Array {
  static from(value, offsetOrEncoding, length) {
    if (typeof value === 'string') return Buffer.#of(utf8Bytes(value));
    if (value instanceof ArrayBuffer) return new Buffer(value, offsetOrEncoding ?? 0, length ?? value.byteLength - (offsetOrEncoding ?? 0));
    // Copying a Uint8Array is one memcpy; Uint8Array.from iterates.
    return Buffer.#of(value instanceof Uint8Array ? new Uint8Array(value) : Uint8Array.from(value));
  }

  static #of(bytes) {
    return new Buffer(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  static allocUnsafe(size) {
    return new Buffer(size);
  }

  static allocUnsafeSlow(size) {
    return new Buffer(size);
  }

  static concat(list) {
    const out = new Buffer(list.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of list) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }

  toString(encoding = 'utf8', start = 0, end = this.length) {
    // A plain view, clamped as subarray would: a Buffer's subarray builds a Buffer.
    const from = Math.min(Math.max(start, 0), this.length);
    const bytes = new Uint8Array(this.buffer, this.byteOffset + from, Math.max(Math.min(end, this.length) - from, 0));
    if (encoding === 'latin1') return latin1(bytes);
    if (encoding !== 'utf8' && encoding !== 'utf-8') throw new TypeError(`unsupported encoding ${encoding}`);
    return utf8.decode(bytes);
  }

  equals(other) {
    return other.length === this.length && this.every((b, i) => b === other[i]);
  }
}

const channel = typeof MessageChannel === 'function' ? new MessageChannel() : undefined;
const queue = [];
if (channel) channel.port1.onmessage = () => queue.shift()?.();

/** A macrotask soon after the current one, as Node's setImmediate. */
export function setImmediate(callback, ...args) {
  if (!channel) return setTimeout(callback, 0, ...args);
  queue.push(() => callback(...args));
  channel.port2.postMessage(0);
}
