// The Move class: one move as chess.js describes it, with its is*() methods
// reading the flags string.
import type { Color, PieceSymbol, Square } from './constants';

/** The fields a Move is made from. */
export interface MoveFields {
  color: Color;
  from: Square;
  to: Square;
  piece: PieceSymbol;
  captured: PieceSymbol | undefined;
  promotion: PieceSymbol | undefined;
  flags: string;
  san: string;
  lan: string;
  before: string;
  after: string;
}

/** A move as chess.js returns it from move(), undo(), moves({ verbose: true }) and history({ verbose: true }). */
export class Move {
  color: Color;
  from: Square;
  to: Square;
  piece: PieceSymbol;
  captured?: PieceSymbol;
  promotion?: PieceSymbol;
  /**
   * n normal, c capture, b pawn double step, e en passant, p promotion,
   * k kingside castling, q queenside castling, - null move.
   * @deprecated as in chess.js: use the is*() methods.
   */
  flags: string;
  san: string;
  lan: string;
  before: string;
  after: string;

  constructor(fields: MoveFields) {
    this.color = fields.color;
    this.from = fields.from;
    this.to = fields.to;
    this.piece = fields.piece;
    // Own properties even when undefined, as chess.js's objects have them.
    this.captured = fields.captured as PieceSymbol;
    this.promotion = fields.promotion as PieceSymbol;
    this.flags = fields.flags;
    this.san = fields.san;
    this.lan = fields.lan;
    this.before = fields.before;
    this.after = fields.after;
  }

  isCapture(): boolean {
    return this.flags.includes('c');
  }

  isPromotion(): boolean {
    return this.flags.includes('p');
  }

  isEnPassant(): boolean {
    return this.flags.includes('e');
  }

  isKingsideCastle(): boolean {
    return this.flags.includes('k');
  }

  isQueensideCastle(): boolean {
    return this.flags.includes('q');
  }

  isBigPawn(): boolean {
    return this.flags.includes('b');
  }
}
