/*
 * fuzz_pgn.c - libFuzzer target: cn_pgn_read on arbitrary bytes.
 *
 * Input: byte 0 picks the mode (mod 3) and byte 1 where the text is cut;
 * the rest is the PGN text, read at its exact length. Checks: the records
 * are well formed (every game GAME ... START ... END, variations balanced,
 * string ranges inside the string table, every MOVE legal on the line it
 * belongs to, with the SAN cn_move_to_san gives, one "invalid UTF-8"
 * error for each tag value and comment that is not UTF-8), tree and
 * mainline modes give the same errors and mainline, and reading the text in
 * two parts (the first one partial, then the rest from where it stopped)
 * gives the same records. Mainline inputs are also read in the chess.js
 * grammar mode, whose records are checked for shape.
 */
#include "fuzz_common.h"
#include "pgn.h"
#include "san.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_init();
    return 0;
}

static void check_range(const cn_pgn_output *out, int32_t offset, int32_t length) {
    FUZZ_CHECK(offset >= 0 && length >= 0 && (size_t)offset + (size_t)length <= out->string_length,
               "string range %d+%d outside %zu", (int)offset, (int)length, out->string_length);
}

/* UTF-8 as RFC 3629 defines it, decoded the long way (the reader's check is
 * the fast one): shortest form, no surrogates, nothing above U+10FFFF. */
static int is_utf8(const unsigned char *s, size_t n) {
    static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
    for (size_t i = 0; i < n;) {
        const unsigned c = s[i];
        size_t extra;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        }
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (n - i <= extra) return 0;
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += extra + 1;
    }
    return 1;
}

static int invalid_string(const cn_pgn_output *out, int32_t offset, int32_t length) {
    return !is_utf8((const unsigned char *)out->strings + offset, (size_t)length);
}

/* Replays every line of one game's records; returns the index after END.
 * Every tag value and comment that is not UTF-8 has its own "invalid
 * UTF-8" error, and no other string has one. */
static size_t check_game(const cn_pgn_output *out, size_t i) {
    static const char start_fen[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    cn_position line[CN_PGN_MAX_DEPTH + 2], before[CN_PGN_MAX_DEPTH + 2];
    int depth = 0, started = 0, invalid = 0, reported = 0;
    FUZZ_CHECK(out->records[i * 4] == CN_PGN_OP_GAME, "game starts with %d", out->records[i * 4]);
    for (i++; i < out->record_count; i++) {
        const int32_t *r = out->records + i * 4;
        switch (r[0]) {
        case CN_PGN_OP_TAG:
            check_range(out, r[1], r[2] + r[3]);
            invalid += invalid_string(out, r[1] + r[2], r[3]);
            break;
        case CN_PGN_OP_START: {
            check_range(out, r[1], r[2]);
            const char *fen = r[2] ? out->strings + r[1] : start_fen;
            const size_t n = r[2] ? (size_t)r[2] : strlen(start_fen);
            if (cn_fen_parse(&line[0], fen, n, r[3] & 1, NULL) != CN_OK)
                cn_fen_parse(&line[0], start_fen, strlen(start_fen), 0, NULL);
            started = 1;
            break;
        }
        case CN_PGN_OP_MOVE: {
            FUZZ_CHECK(started, "move before START");
            check_range(out, r[2], r[3]);
            cn_move legal[CN_MAX_MOVES];
            const int n = cn_legal_moves(&line[depth], legal);
            int found = r[1] == CN_MOVE_NONE && !cn_in_check(&line[depth]);
            for (int k = 0; k < n && !found; k++) found = legal[k] == (cn_move)r[1];
            FUZZ_CHECK(found, "illegal move %d recorded", (int)r[1]);
            char san[CN_SAN_MAX] = "--";
            const int san_length = r[1] == CN_MOVE_NONE ? 2 : cn_move_to_san(&line[depth], (cn_move)r[1], san);
            FUZZ_CHECK(san_length == r[3] && !memcmp(san, out->strings + r[2], (size_t)san_length),
                       "SAN %.*s recorded, %s expected", (int)r[3], out->strings + r[2], san);
            before[depth] = line[depth];
            cn_pgn_play(&line[depth], (cn_move)r[1]);
            break;
        }
        case CN_PGN_OP_COMMENT:
            check_range(out, r[1], r[2]);
            invalid += invalid_string(out, r[1], r[2]);
            break;
        case CN_PGN_OP_ERROR:
            check_range(out, r[1], r[2]);
            reported += r[2] == 13 && !memcmp(out->strings + r[1], "invalid UTF-8", 13);
            break;
        case CN_PGN_OP_VAR_START:
            FUZZ_CHECK(depth < CN_PGN_MAX_DEPTH, "variation depth %d", depth + 1);
            line[depth + 1] = before[depth];
            depth++;
            break;
        case CN_PGN_OP_VAR_END:
            FUZZ_CHECK(depth > 0, "unbalanced variation end");
            depth--;
            break;
        case CN_PGN_OP_END:
            FUZZ_CHECK(depth == 0 && started, "game ends at depth %d", depth);
            FUZZ_CHECK(invalid == reported, "%d strings not UTF-8, %d reported", invalid, reported);
            check_range(out, r[2], r[3]);
            return i + 1;
        default:
            FUZZ_CHECK(r[0] == CN_PGN_OP_NAG || r[0] == CN_PGN_OP_WHERE, "record op %d", r[0]);
        }
    }
    FUZZ_CHECK(0, "game without END");
    return i;
}

/* Records equal but for string offsets (tables differ between reads). */
static void check_same(const cn_pgn_output *a, const cn_pgn_output *b) {
    for (size_t i = 0; i < a->record_count; i++) {
        const int32_t *x = a->records + i * 4, *y = b->records + i * 4;
        FUZZ_CHECK(x[0] == y[0], "record %zu op %d vs %d", i, x[0], y[0]);
        const int keep_all = x[0] == CN_PGN_OP_GAME || x[0] == CN_PGN_OP_WHERE || x[0] == CN_PGN_OP_NAG;
        FUZZ_CHECK(!keep_all || (x[1] == y[1] && x[2] == y[2]), "record %zu (op %d) differs", i, x[0]);
        if (x[0] == CN_PGN_OP_MOVE) FUZZ_CHECK(x[1] == y[1], "move %zu differs", i);
    }
}

static void read_all(const char *text, size_t len, cn_pgn_mode mode, cn_pgn_output *out) {
    cn_pgn_input in = {0};
    in.text = text;
    in.length = len;
    in.final = 1;
    in.mode = mode;
    in.line = 1;
    FUZZ_CHECK(cn_pgn_read(&in, out) == CN_OK, "read failed");
    FUZZ_CHECK(in.consumed == len, "consumed %zu of %zu", in.consumed, len);
}

/* The next error (ERROR + WHERE) or depth-0 MOVE record from *i; 0 at the end. */
static const int32_t *next_error_or_move(const cn_pgn_output *out, size_t *i, int *depth) {
    for (; *i < out->record_count; ++*i) {
        const int32_t *r = out->records + *i * 4;
        *depth += (r[0] == CN_PGN_OP_VAR_START) - (r[0] == CN_PGN_OP_VAR_END);
        if (r[0] == CN_PGN_OP_ERROR || (r[0] == CN_PGN_OP_MOVE && *depth == 0)) {
            ++*i;
            return r;
        }
    }
    return NULL;
}

/* Tree and mainline modes validate the same moves, variations included:
 * the same errors and the same mainline. Invalid UTF-8 is left out: only
 * tree mode keeps comments, where it may be. */
static void check_modes_agree(const char *text, size_t len) {
    cn_pgn_output tree = {0}, main = {0};
    read_all(text, len, CN_PGN_MODE_TREE, &tree);
    read_all(text, len, CN_PGN_MODE_MAINLINE, &main);
    size_t i = 0, k = 0;
    int tree_depth = 0, main_depth = 0;
    for (;;) {
        const int32_t *x, *y;
        do x = next_error_or_move(&tree, &i, &tree_depth);
        while (x && x[0] == CN_PGN_OP_ERROR && x[2] == 13 && !memcmp(tree.strings + x[1], "invalid UTF-8", 13));
        do y = next_error_or_move(&main, &k, &main_depth);
        while (y && y[0] == CN_PGN_OP_ERROR && y[2] == 13 && !memcmp(main.strings + y[1], "invalid UTF-8", 13));
        if (!x || !y) {
            FUZZ_CHECK(!x && !y, "tree and mainline modes differ in length");
            break;
        }
        FUZZ_CHECK(x[0] == y[0] && (x[0] != CN_PGN_OP_MOVE || x[1] == y[1]), "tree and mainline records differ");
        if (x[0] != CN_PGN_OP_ERROR) continue;
        FUZZ_CHECK(x[2] == y[2] && x[3] == y[3] && !memcmp(tree.strings + x[1], main.strings + y[1], (size_t)x[2]),
                   "tree and mainline errors differ: %.*s", (int)x[2], tree.strings + x[1]);
        FUZZ_CHECK(!memcmp(x + 4, y + 4, 3 * sizeof *x), "tree and mainline error places differ");
    }
    FUZZ_CHECK(tree.games == main.games, "tree %zu games, mainline %zu", tree.games, main.games);
    cn_pgn_output_free(&tree);
    cn_pgn_output_free(&main);
}

/* The chess.js grammar mode: one game, GAME first and END last, strings
 * inside the table, variations balanced, and an error (ERROR + WHERE) only
 * alone between them. */
static void check_chessjs(const char *text, size_t len) {
    cn_pgn_output out = {0};
    read_all(text, len, CN_PGN_MODE_CHESSJS, &out);
    const size_t n = out.record_count;
    FUZZ_CHECK(out.games == 1 && n >= 2, "chess.js mode: %zu games, %zu records", out.games, n);
    FUZZ_CHECK(out.records[0] == CN_PGN_OP_GAME && out.records[(n - 1) * 4] == CN_PGN_OP_END, "chess.js mode: ends");
    int depth = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        const int32_t *r = out.records + i * 4;
        if (r[0] == CN_PGN_OP_TAG) {
            check_range(&out, r[1], r[2]);
            check_range(&out, r[1] + r[2], r[3]);
        } else if (r[0] == CN_PGN_OP_TOKEN || r[0] == CN_PGN_OP_COMMENT || r[0] == CN_PGN_OP_ERROR) {
            check_range(&out, r[1], r[2]);
        }
        FUZZ_CHECK(r[0] != CN_PGN_OP_ERROR || (n == 4 && i == 1 && r[4] == CN_PGN_OP_WHERE), "chess.js mode: error");
        depth += (r[0] == CN_PGN_OP_VAR_START) - (r[0] == CN_PGN_OP_VAR_END);
        FUZZ_CHECK(depth >= 0, "chess.js mode: variation closed twice");
    }
    FUZZ_CHECK(depth == 0, "chess.js mode: variation left open");
    cn_pgn_output_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > 1 << 16) return 0;
    const cn_pgn_mode mode = (cn_pgn_mode)(data[0] % 3);
    const size_t len = size - 2;
    char *text = fuzz_exact_copy(data + 2, len);
    cn_pgn_output whole = {0}, parts = {0};
    read_all(text, len, mode, &whole);
    for (size_t i = 0; i < whole.record_count;) i = check_game(&whole, i);
    if (mode == CN_PGN_MODE_TREE) check_modes_agree(text, len);
    if (mode == CN_PGN_MODE_MAINLINE) check_chessjs(text, len);

    const size_t cut = len ? (size_t)data[1] * len / 255 : 0;
    cn_pgn_input first = {0};
    first.text = text;
    first.length = cut;
    first.mode = mode;
    first.line = 1;
    FUZZ_CHECK(cn_pgn_read(&first, &parts) == CN_OK, "partial read failed");
    FUZZ_CHECK(first.consumed <= cut, "consumed past the text");
    cn_pgn_input rest = {0};
    rest.text = text + first.consumed;
    rest.length = len - first.consumed;
    rest.final = 1;
    rest.mode = mode;
    rest.line = first.consumed_line;
    rest.column = first.consumed_column;
    FUZZ_CHECK(cn_pgn_read(&rest, &parts) == CN_OK, "second read failed");
    FUZZ_CHECK(parts.record_count == whole.record_count, "%zu records in parts, %zu whole", parts.record_count,
               whole.record_count);
    check_same(&whole, &parts);

    /* Blocks on 2 to 4 threads, of a size the input picks: the same records and strings. */
    cn_pgn_output blocks = {0};
    cn_pgn_input many = {0};
    many.text = text;
    many.length = len;
    many.final = 1;
    many.mode = mode;
    many.line = 1;
    FUZZ_CHECK(cn_pgn_read_parallel(&many, &blocks, 2 + data[1] % 3, 1 + data[1] * (len / 8 + 1) / 255) == CN_OK,
               "parallel read failed");
    FUZZ_CHECK(many.consumed == len, "parallel read consumed %zu of %zu", many.consumed, len);
    FUZZ_CHECK(blocks.record_count == whole.record_count && blocks.string_length == whole.string_length &&
                   (!whole.record_count || !memcmp(blocks.records, whole.records,
                                                   whole.record_count * CN_PGN_RECORD_INTS * sizeof(int32_t))) &&
                   (!whole.string_length || !memcmp(blocks.strings, whole.strings, whole.string_length)),
               "parallel read differs (%zu blocks kept)", many.blocks);
    cn_pgn_output_free(&blocks);
    cn_pgn_output_free(&whole);
    cn_pgn_output_free(&parts);
    free(text);
    return 0;
}
