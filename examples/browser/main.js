// The demo page: a board from a FEN, its legal moves to click, perft on Web
// Workers with progress and cancel, and a PGN file's games and errors. It
// uses the package's public API only; the bundler picks the browser entry,
// which runs the engine as WebAssembly.
import { Position, START_FEN, FenError, readPgn, perftAsync } from 'chess-native';

const $ = (id) => document.getElementById(id);
const GLYPHS = { wk: '♔', wq: '♕', wr: '♖', wb: '♗', wn: '♘', wp: '♙', bk: '♚', bq: '♛', br: '♜', bb: '♝', bn: '♞', bp: '♟' };
const FILES = 'abcdefgh';
const SVG = 'http://www.w3.org/2000/svg';

let pos = new Position();
let selected = null; // the square whose moves are shown as targets

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function drawBoard() {
  const board = svg('svg', { viewBox: '0 0 8 8' });
  const targets = new Map(selected ? pos.movesFrom(selected).map((uci) => [uci.slice(2, 4), uci]) : []);
  pos.board().forEach((row, r) =>
    row.forEach((piece, f) => {
      const square = FILES[f] + (8 - r);
      const light = (r + f) % 2 === 0;
      const cell = svg('rect', { x: f, y: r, width: 1, height: 1, fill: square === selected ? '#f6e27f' : light ? '#eed9b6' : '#b58863' });
      cell.dataset.square = square;
      board.append(cell);
      if (piece) {
        const glyph = svg('text', { x: f + 0.5, y: r + 0.8, 'font-size': 0.85, 'text-anchor': 'middle' }, GLYPHS[piece.color + piece.type]);
        glyph.dataset.square = square;
        board.append(glyph);
      }
      if (targets.has(square)) {
        const dot = svg('circle', { cx: f + 0.5, cy: r + 0.5, r: 0.15, fill: 'rgba(20, 85, 30, 0.6)', class: 'target' });
        dot.dataset.square = square;
        board.append(dot);
      }
    }),
  );
  board.addEventListener('click', (event) => clickSquare(event.target.dataset?.square, targets));
  $('board').replaceChildren(board);
}

function clickSquare(square, targets) {
  if (!square) return;
  if (targets.has(square)) return play(targets.get(square)); // a promotion goes to a queen
  selected = pos.movesFrom(square).length ? square : null;
  drawBoard();
}

function statusText() {
  if (pos.isCheckmate()) return `Checkmate: ${pos.turn() === 'w' ? 'Black' : 'White'} wins.`;
  if (pos.isStalemate()) return 'Stalemate.';
  if (pos.isDraw()) return 'Draw.';
  return `${pos.turn() === 'w' ? 'White' : 'Black'} to move${pos.inCheck() ? ', in check' : ''}.`;
}

function render() {
  $('fen').value = pos.fen();
  drawBoard();
  const ucis = pos.legalMoves();
  const sans = pos.legalMovesSan();
  $('count').textContent = String(ucis.length);
  $('moves').replaceChildren(
    ...ucis.map((uci, i) => {
      const button = document.createElement('button');
      button.textContent = sans[i];
      button.title = uci;
      button.addEventListener('click', () => play(uci));
      return button;
    }),
  );
  $('status').textContent = statusText();
}

function play(uci) {
  pos.play(uci);
  selected = null;
  render();
}

function setPosition(fen) {
  try {
    pos = new Position(fen);
    selected = null;
    $('fen-error').textContent = '';
    render();
  } catch (e) {
    $('fen-error').textContent = e instanceof FenError ? `${e.message} (field: ${e.field})` : String(e);
  }
}

// --- perft: perftAsync counts on the package's Web Workers; cancel aborts it.
let running = null; // the AbortController of the run in progress

function stopPerft(text) {
  running?.abort();
  running = null;
  $('perft').disabled = false;
  $('cancel').disabled = true;
  if (text !== undefined) $('perft-result').textContent = text;
}

function startPerft() {
  const depth = Number($('depth').value);
  stopPerft('');
  const run = new AbortController();
  running = run;
  $('perft').disabled = true;
  $('cancel').disabled = false;
  $('progress').value = 0;
  const onProgress = ({ rootMovesDone, rootMovesTotal }) => {
    $('progress').max = rootMovesTotal || 1;
    $('progress').value = rootMovesDone;
  };
  perftAsync(pos.fen(), depth, { signal: run.signal, onProgress }).then(
    ({ nodes, seconds }) => {
      if (running === run) stopPerft(`perft(${depth}) = ${nodes.toLocaleString()} in ${(seconds * 1000).toFixed(0)} ms`);
    },
    // An aborted run was stopped by stopPerft, which said why.
    (e) => {
      if (running === run) stopPerft(`Error: ${e instanceof Error ? e.message : String(e)}`);
    },
  );
}

// --- PGN: every game of a file, read as a stream, with its errors.
async function openPgn(file) {
  const list = $('games');
  list.replaceChildren();
  let games = 0;
  let errors = 0;
  for await (const game of readPgn(file)) {
    games++;
    errors += game.errors.length;
    const item = document.createElement('div');
    const moves = game.moves();
    item.textContent = `${games}. ${game.headers.White ?? '?'} - ${game.headers.Black ?? '?'} ${game.result}, ${moves.length} plies`;
    for (const error of game.errors) {
      const line = document.createElement('div');
      line.className = 'error';
      line.textContent = `  line ${error.line}:${error.column} ${error.message}`;
      item.append(line);
    }
    item.addEventListener('click', () => setPosition(game.finalFen));
    list.append(item);
  }
  $('pgn-summary').textContent = `${games} games, ${errors} errors (click a game for its final position)`;
}

$('load').addEventListener('click', () => setPosition($('fen').value));
$('reset').addEventListener('click', () => setPosition(START_FEN));
$('undo').addEventListener('click', () => {
  pos.undo();
  render();
});
$('perft').addEventListener('click', startPerft);
$('cancel').addEventListener('click', () => stopPerft('Cancelled.'));
$('pgn').addEventListener('change', (event) => {
  const [file] = event.target.files;
  if (file) openPgn(file).catch((e) => ($('pgn-summary').textContent = `Error: ${e.message}`));
});
render();
document.body.dataset.ready = 'true';
