// Whether bytes are all ASCII, fast where Node's buffer.isAscii is missing
// (browsers, Node 18 before 18.15): the PGN reader's string table is then
// decoded once, not string by string.

/**
 * Whether every byte is below 0x80: the bytes ORed together, four at a time
 * over the aligned middle, so a megabyte costs a fraction of a millisecond.
 */
export function asciiOnly(bytes: Uint8Array): boolean {
  const length = bytes.length;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  const count = (length - head) >> 2; // > 0 only when head reaches the alignment
  let any = 0;
  for (let i = 0; i < head; i++) any |= bytes[i] as number;
  for (let i = head + 4 * count; i < length; i++) any |= bytes[i] as number;
  if (count > 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + head, count);
    for (let i = 0; i < count; i++) any |= words[i] as number;
  }
  return (any & 0x80808080) === 0;
}
