// pgn(): chess.js's PGN text, byte for byte: its tag lines (tags with an
// empty or null value left out), a blank line when there are moves, the
// movetext with comments keyed by the FEN they follow, the result, and its
// way of wrapping at maxWidth (comments are wrapped word by word; their
// spacing is not kept).

/** One ply as pgn() writes it. */
interface Ply {
  color: 'w' | 'b';
  san: string;
  /** The fullmove number of the position the move is played from. */
  moveNumber: number;
}

export interface PgnText {
  header: Record<string, string | null>;
  plies: readonly Ply[];
  /** FEN of each position of the game: before the first move, then after each (may be empty when there are no comments). */
  fens: readonly string[];
  comments: Record<string, string>;
  newline: string;
  maxWidth: number;
}

function movetext(t: PgnText): string[] {
  const appendComment = (text: string, ply: number): string => {
    const fen = t.fens[ply];
    const comment = fen === undefined ? undefined : t.comments[fen];
    if (comment === undefined) return text;
    return `${text}${text.length > 0 ? ' ' : ''}{${comment}}`;
  };
  const moves: string[] = [];
  if (t.plies.length === 0) moves.push(appendComment('', 0));
  let text = '';
  t.plies.forEach((ply, i) => {
    text = appendComment(text, i);
    if (i === 0 && ply.color === 'b') {
      const prefix = `${ply.moveNumber}. ...`;
      text = text ? `${text} ${prefix}` : prefix;
    } else if (ply.color === 'w') {
      if (text.length > 0) moves.push(text);
      text = `${ply.moveNumber}.`;
    }
    text += ' ' + ply.san;
  });
  if (text.length > 0) moves.push(appendComment(text, t.plies.length));
  moves.push(t.header['Result'] || '*');
  return moves;
}

/** chess.js's wrapping of `moves` after the tag lines already in `out`. */
function wrap(out: string[], moves: readonly string[], maxWidth: number, newline: string): string {
  const strip = (): boolean => {
    if (out.length > 0 && out[out.length - 1] === ' ') {
      out.pop();
      return true;
    }
    return false;
  };
  const wrapComment = (start: number, move: string): number => {
    let width = start;
    for (const token of move.split(' ')) {
      if (!token) continue;
      if (width + token.length > maxWidth) {
        while (strip()) width--;
        out.push(newline);
        width = 0;
      }
      out.push(token, ' ');
      width += token.length + 1;
    }
    if (strip()) width--;
    return width;
  };
  let width = 0;
  moves.forEach((move, i) => {
    if (width + move.length > maxWidth && move.includes('{')) {
      width = wrapComment(width, move);
      return;
    }
    if (width + move.length > maxWidth && i !== 0) {
      if (out[out.length - 1] === ' ') out.pop();
      out.push(newline);
      width = 0;
    } else if (i !== 0) {
      out.push(' ');
      width++;
    }
    out.push(move);
    width += move.length;
  });
  return out.join('');
}

/** The PGN text chess.js's pgn() gives. */
export function pgnText(t: PgnText): string {
  const out: string[] = [];
  let tags = false;
  for (const name in t.header) {
    const value = t.header[name];
    if (value) out.push(`[${name} "${value}"]` + t.newline);
    tags = true;
  }
  if (tags && t.plies.length > 0) out.push(t.newline);
  const moves = movetext(t);
  if (t.maxWidth === 0) return out.join('') + moves.join(' ');
  return wrap(out, moves, t.maxWidth, t.newline);
}
