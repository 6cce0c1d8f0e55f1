// A PGN string table a backend decoded itself (pgnReadText of an ASCII
// text): a string a game, cut where gameTextEnds says, then any strings
// after the last game. Byte offsets into the table are string offsets.

/** The table's strings in order, and where each starts. */
export class DecodedTable {
  readonly texts: readonly string[];
  readonly #starts: number[] = [];
  /** The table's length. */
  readonly length: number;

  constructor(texts: string[]) {
    this.texts = texts;
    let at = 0;
    for (const t of texts) {
      this.#starts.push(at);
      at += t.length;
    }
    this.length = at;
  }

  /** table[from, to): a slice of the string that holds it, or of several joined. */
  slice(from: number, to: number): string {
    const texts = this.texts;
    const starts = this.#starts;
    let lo = 0;
    let hi = texts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= from) lo = mid;
      else hi = mid - 1;
    }
    let out = '';
    for (let k = lo; k < texts.length && (starts[k] as number) < to; k++) {
      const start = starts[k] as number;
      out += (texts[k] as string).slice(Math.max(from - start, 0), to - start);
    }
    return out;
  }
}
