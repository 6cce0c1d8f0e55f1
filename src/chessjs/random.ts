// xoroshiro128** (Blackman and Vigna), as chess.js exports it: a generator of
// 64-bit bigints from a 128-bit state. chess.js draws its Zobrist keys from
// it, so hash.ts can give the same hash() strings.

const MASK64 = 0xffffffffffffffffn;

function rotl(x: bigint, k: bigint): bigint {
  return ((x << k) | (x >> (64n - k))) & MASK64;
}

/** A function returning the next 64-bit output of xoroshiro128** started from `state`. */
export function xoroshiro128(state: bigint): () => bigint {
  return () => {
    let s0 = state & MASK64;
    let s1 = (state >> 64n) & MASK64;
    const result = (rotl((s0 * 5n) & MASK64, 7n) * 9n) & MASK64;
    s1 ^= s0;
    s0 = (rotl(s0, 24n) ^ s1 ^ (s1 << 16n)) & MASK64;
    s1 = rotl(s1, 37n);
    state = (s1 << 64n) | s0;
    return result;
  };
}
