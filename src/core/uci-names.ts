// UCI strings by 16-bit move value, filled lazily. The string is a pure
// function of the move and the mode (castling is e1g1 in standard chess,
// e1h1 in Chess960), so each distinct move crosses the boundary as a string
// once per thread. A dense 65536-entry array (512 KiB) keeps the lookup a
// plain indexed load; a sparse one would fall back to dictionary mode (about
// 5x slower).

/** A move whose name is not known yet. */
export const UNNAMED = '';

const STANDARD: string[] = new Array<string>(65536).fill(UNNAMED);
let chess960Names: string[] | undefined;

/** The names of one mode's moves: `names[move]`, or UNNAMED until filled in. */
export function uciNames(chess960: boolean): string[] {
  if (!chess960) return STANDARD;
  return (chess960Names ??= new Array<string>(65536).fill(UNNAMED));
}

/** The UCI string of a playLine record: `bytes[at, at + 6)`, NUL padded after 4 or 5 characters. */
export function uciFromRecord(bytes: Uint8Array, at: number): string {
  const n = bytes[at + 4] === 0 ? 4 : 5;
  let uci = '';
  for (let i = 0; i < n; i++) uci += String.fromCharCode(bytes[at + i] as number);
  return uci;
}

/** uciFromRecord of the record's bytes read as a string (one character a byte). */
export function uciFromText(text: string, at: number): string {
  return text.slice(at, text.charCodeAt(at + 4) === 0 ? at + 4 : at + 5);
}
