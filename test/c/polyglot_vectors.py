#!/usr/bin/env python3
"""Checks csrc/engine/zobrist.c, the Polyglot random table, two independent ways.

1. Every one of the 781 values equals the stream the table was generated
   from: ISAAC-64 with an all-zero seed, read in the reference rand() order
   (each 256-value block from its end). This covers entries no test position
   touches.
2. Keys computed from the table match the test vectors published with the
   Polyglot book format, both from the published FENs and by replaying the
   published move sequences from the start position.

Run: python3 test/c/polyglot_vectors.py   (exit status 0 when all pass)
"""
import os
import re
import sys

MASK = (1 << 64) - 1
HERE = os.path.dirname(os.path.abspath(__file__))
TABLE_PATH = os.path.join(HERE, "..", "..", "csrc", "engine", "zobrist.c")

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# (moves from the start position, FEN as published, key as published)
PUBLISHED = [
    ("", START_FEN, 0x463B96181691FC9C),
    ("e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823C9B50FD114196),
    ("e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756B94461C50FB0),
    ("e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662FAFB965DB29D4),
    ("e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22A48B5A8E47FF78),
    ("e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652A607CA3F242C1),
    ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00FDD303C946BDD9),
    ("a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3C8123EA7B067637),
    ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5C3F9B829B279560),
]

PIECE_TYPES = "pnbrqk"


def load_table():
    with open(TABLE_PATH) as handle:
        text = handle.read()
    body = text[text.index("cn_polyglot_random[") :]
    return [int(h, 16) for h in re.findall(r"UINT64_C\(0x([0-9A-Fa-f]{16})\)", body)]


# --- 1. the generator ------------------------------------------------------

def isaac64_mix(s):
    a, b, c, d, e, f, g, h = s
    a = (a - e) & MASK; f ^= h >> 9; h = (h + a) & MASK
    b = (b - f) & MASK; g ^= (a << 9) & MASK; a = (a + b) & MASK
    c = (c - g) & MASK; h ^= b >> 23; b = (b + c) & MASK
    d = (d - h) & MASK; a ^= (c << 15) & MASK; c = (c + d) & MASK
    e = (e - a) & MASK; b ^= d >> 14; d = (d + e) & MASK
    f = (f - b) & MASK; c ^= (e << 20) & MASK; e = (e + f) & MASK
    g = (g - c) & MASK; d ^= f >> 17; f = (f + g) & MASK
    h = (h - d) & MASK; e ^= (g << 14) & MASK; g = (g + h) & MASK
    return [a, b, c, d, e, f, g, h]


def isaac64_zero_seed_stream(count):
    """Values in the order the reference rand() macro hands them out."""
    seed = [0] * 256
    memory = [0] * 256
    state = [0x9E3779B97F4A7C13] * 8
    for _ in range(4):
        state = isaac64_mix(state)
    for source in (seed, memory):  # two seeding passes, as with flag = TRUE
        for i in range(0, 256, 8):
            state = isaac64_mix([(state[j] + source[i + j]) & MASK for j in range(8)])
            memory[i : i + 8] = state
    acc_a = acc_b = counter = 0
    out = []
    while len(out) < count:
        counter += 1
        a, b = acc_a, (acc_b + counter) & MASK
        block = [0] * 256
        for i in range(256):
            step = i % 4
            if step == 0:
                mixed = ~(a ^ ((a << 21) & MASK)) & MASK
            elif step == 1:
                mixed = a ^ (a >> 5)
            elif step == 2:
                mixed = a ^ ((a << 12) & MASK)
            else:
                mixed = a ^ (a >> 33)
            x = memory[i]
            a = (mixed + memory[(i + 128) % 256]) & MASK
            y = (memory[(x >> 3) & 255] + a + b) & MASK
            memory[i] = y
            b = (memory[(y >> 11) & 255] + x) & MASK
            block[i] = b
        acc_a, acc_b = a, b
        out.extend(reversed(block))
    return out[:count]


# --- 2. keys from positions --------------------------------------------------

def parse_fen(fen):
    fields = fen.split()
    board = {}  # square (a1 = 0) -> piece letter
    for row_from_top, row_text in enumerate(fields[0].split("/")):
        rank = 7 - row_from_top
        file = 0
        for char in row_text:
            if char.isdigit():
                file += int(char)
            else:
                board[8 * rank + file] = char
                file += 1
    ep = None if fields[3] == "-" else (ord(fields[3][0]) - 97) + 8 * (int(fields[3][1]) - 1)
    return {"board": board, "white": fields[1] == "w", "castling": fields[2].replace("-", ""), "ep": ep}


def polyglot_key(table, pos):
    key = 0
    for square, piece in pos["board"].items():
        kind = 2 * PIECE_TYPES.index(piece.lower()) + (1 if piece.isupper() else 0)
        key ^= table[64 * kind + square]
    for index, right in enumerate("KQkq"):
        if right in pos["castling"]:
            key ^= table[768 + index]
    if pos["ep"] is not None:
        # Hashed only if a pawn of the side to move stands beside the pawn
        # that just made the double step (legality is not considered).
        file = pos["ep"] % 8
        pawn_rank = 4 if pos["white"] else 3
        own_pawn = "P" if pos["white"] else "p"
        beside = [f for f in (file - 1, file + 1) if 0 <= f < 8]
        if any(pos["board"].get(8 * pawn_rank + f) == own_pawn for f in beside):
            key ^= table[772 + file]
    if pos["white"]:
        key ^= table[780]
    return key


def play_uci(pos, uci):
    """Just enough move logic for the published sequences (no castling)."""
    frm = (ord(uci[0]) - 97) + 8 * (int(uci[1]) - 1)
    to = (ord(uci[2]) - 97) + 8 * (int(uci[3]) - 1)
    board = pos["board"]
    piece = board.pop(frm)
    if piece in "Pp" and to == pos["ep"]:
        board.pop(to - 8 if pos["white"] else to + 8)  # the pawn taken en passant
    board[to] = piece
    lost = {4: "KQ", 60: "kq", 0: "Q", 7: "K", 56: "q", 63: "k"}
    for square in (frm, to):
        for right in lost.get(square, ""):
            pos["castling"] = pos["castling"].replace(right, "")
    pos["ep"] = (frm + to) // 2 if piece in "Pp" and abs(to - frm) == 16 else None
    pos["white"] = not pos["white"]


def main():
    failures = 0
    table = load_table()
    if len(table) != 781:
        print("FAIL: table has %d values, want 781" % len(table))
        return 1
    stream = isaac64_zero_seed_stream(781)
    for index, (have, want) in enumerate(zip(table, stream)):
        if have != want:
            print("FAIL: entry %d is %016x, generator gives %016x" % (index, have, want))
            failures += 1
    for moves, fen, want in PUBLISHED:
        from_fen = polyglot_key(table, parse_fen(fen))
        replayed = parse_fen(START_FEN)
        for uci in moves.split():
            play_uci(replayed, uci)
        from_moves = polyglot_key(table, replayed)
        for how, have in (("fen", from_fen), ("moves", from_moves)):
            if have != want:
                print("FAIL: %s [%s] %016x, want %016x" % (how, moves or "start", have, want))
                failures += 1
    # An ep square no pawn can capture onto is not hashed.
    lone = "4k3/8/8/8/3P4/8/8/4K3 b - %s 0 1"
    if polyglot_key(table, parse_fen(lone % "d3")) != polyglot_key(table, parse_fen(lone % "-")):
        print("FAIL: uncapturable en passant square changed the key")
        failures += 1
    print("polyglot vectors: %d checks failed" % failures if failures else
          "polyglot vectors: 781 table entries and %d published keys OK" % len(PUBLISHED))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
