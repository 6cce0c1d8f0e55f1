// What the API's TypeScript takes from Node's globals, for the browser
// bundle (wasm/bundle.mjs injects these where the code names them): the part
// of Buffer the PGN reader and the position slabs use, and setImmediate.
// Everything else Node-only is left out of the browser entry or fails with
// a clear error when called.

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8');

/** Bytes with Buffer's toString and equals; subarray keeps the class. */
export class Buffer extends Uint8Array {
  static from(value, offsetOrEncoding, length) {
    if (typeof value === 'string') return Buffer.#of(encoder.encode(value));
    if (value instanceof ArrayBuffer) return new Buffer(value, offsetOrEncoding ?? 0, length ?? value.byteLength - (offsetOrEncoding ?? 0));
    return Buffer.#of(Uint8Array.from(value));
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
    // 'latin1' as Node has it: one character per byte (the WHATWG decoder maps 0x80-0x9f to cp1252).
    if (encoding === 'latin1') {
      let s = '';
      for (let i = start; i < end; i += 8192) s += String.fromCharCode(...this.subarray(i, Math.min(end, i + 8192)));
      return s;
    }
    if (encoding !== 'utf8' && encoding !== 'utf-8') throw new TypeError(`unsupported encoding ${encoding}`);
    return utf8.decode(this.subarray(start, end));
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
