/*
 * boundary.c - the tables of boundary.h as one JSON text. The tree of
 * tables is a compile-time constant made from the X-macro lists; it is
 * written out as text once, by cn_init.
 */
#include <string.h>

#include "impl.h"
#include "include/boundary.h"

_Static_assert(CN_PGN_RECORD_LENGTH == CN_PGN_RECORD_INTS, "a PGN record is its op and three fields");
_Static_assert(CN_PGN_TAG_VALUE_LENGTH < CN_PGN_RECORD_INTS && CN_PGN_START_FLAGS < CN_PGN_RECORD_INTS &&
                   CN_PGN_MOVE_SAN_LENGTH < CN_PGN_RECORD_INTS && CN_PGN_ERROR_PLY < CN_PGN_RECORD_INTS &&
                   CN_PGN_END_FEN_LENGTH < CN_PGN_RECORD_INTS,
               "every field of a PGN record lies inside it");
_Static_assert(CN_BOARD_CODE(CN_BLACK, CN_KING) < 256, "board codes are bytes");

/* A node of the tree: a number (a JSON number, or for 64-bit values beyond
 * a double a decimal string), a string, or an object of `count` nodes. */
enum { NODE_NUMBER, NODE_WIDE, NODE_TEXT, NODE_OBJECT };
typedef struct node {
    uint64_t number;
    const char *key;
    const void *ref; /* NODE_TEXT: the string; NODE_OBJECT: the nodes */
    uint16_t count;
    uint8_t kind;
} node;

#define NUMBER(value, json) {.key = #json, .number = (uint64_t)(value)},
#define WIDE(value, json)   {.key = #json, .number = (value), .kind = NODE_WIDE},
#define NAME(value, json)   {.key = #json, .ref = #value, .kind = NODE_TEXT},
#define OBJECT(json, array) {.key = #json, .ref = array, .count = sizeof array / sizeof array[0], .kind = NODE_OBJECT}

#define SLOT_ARRAY(list, key) static const node slots_##key[] = {list(NUMBER)};
CN_BOUNDARY_SLOT_TABLES(SLOT_ARRAY)
#define SLOT_OBJECT(list, key) OBJECT(key, slots_##key),
static const node slots[] = {CN_BOUNDARY_SLOT_TABLES(SLOT_OBJECT)};

static const node slot_lengths[] = {CN_BOUNDARY_SLOT_LENGTHS(NUMBER)};

static const node limits[] = {CN_BOUNDARY_LIMITS(NUMBER)};
static const node pgn_ops[] = {CN_PGN_OPS(NUMBER)};
static const node pgn_modes[] = {CN_PGN_MODES(NUMBER)};
static const node pgn_results[] = {CN_PGN_RESULTS(NUMBER)};
static const node pgn_text_ends[] = {CN_PGN_TEXT_ENDS(NUMBER)};
static const node pgn_start_flags[] = {CN_PGN_START_FLAG_BITS(NUMBER)};
static const node pgn[] = {CN_PGN_LIMITS(NUMBER) OBJECT(op, pgn_ops), OBJECT(mode, pgn_modes),
                           OBJECT(result, pgn_results), OBJECT(textEnd, pgn_text_ends),
                           OBJECT(startFlags, pgn_start_flags)};
static const node board[] = {CN_BOARD_CODES(NUMBER)};
static const node colors[] = {CN_COLORS(NUMBER)};
static const node game_state_bits[] = {CN_GAME_STATE_BITS(NUMBER)};
static const node line_formats[] = {CN_LINE_FORMATS(NUMBER)};
static const node line_statuses[] = {CN_LINE_STATUSES(NUMBER)};
static const node error_codes[] = {CN_ERROR_CODES(NAME)};
static const node statuses[] = {CN_STATUSES(NUMBER)};
static const node key_seeds[] = {CN_BOUNDARY_KEY_SEEDS(WIDE)};

#define LAYOUT_ARRAY(list, key) static const node layout_##key[] = {list(NUMBER)};
CN_BOUNDARY_LAYOUT_TABLES(LAYOUT_ARRAY)
#define LAYOUT_OBJECT(list, key) OBJECT(key, layout_##key),
static const node layout[] = {CN_BOUNDARY_LAYOUT_SIZES(NUMBER) CN_BOUNDARY_LAYOUT_TABLES(LAYOUT_OBJECT)};

static const node tables[] = {
    OBJECT(slots, slots),
    OBJECT(slotLengths, slot_lengths),
    OBJECT(limits, limits),
    OBJECT(pgn, pgn),
    OBJECT(board, board),
    OBJECT(colors, colors),
    OBJECT(gameStateBits, game_state_bits),
    OBJECT(lineFormat, line_formats),
    OBJECT(lineStatus, line_statuses),
    OBJECT(errorCodes, error_codes),
    OBJECT(status, statuses),
    OBJECT(layout, layout),
    OBJECT(keySeeds, key_seeds),
};
static const node root = OBJECT(tables, tables);

/* Comfortably more than the text (about 4 KiB); cn_boundary_init checks. */
static char text[8192];
static size_t length;

static void put(const char *s) {
    const size_t n = strlen(s);
    if (length + n < sizeof text) memcpy(text + length, s, n);
    length += n;
}

/* A number in decimal. */
static void put_number(uint64_t value) {
    char digits[21];
    size_t at = sizeof digits - 1;
    digits[at] = 0;
    do {
        digits[--at] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    put(digits + at);
}

static void put_node(const node *n) {
    if (n->kind == NODE_OBJECT) {
        const node *children = n->ref;
        put("{");
        for (size_t i = 0; i < n->count; i++) {
            put(i ? ",\"" : "\"");
            put(children[i].key);
            put("\":");
            put_node(&children[i]);
        }
        put("}");
    } else if (n->kind == NODE_TEXT) {
        put("\"");
        put(n->ref);
        put("\"");
    } else {
        /* A JSON number is exact below 2^53; a wider value is a string. */
        if (n->kind == NODE_WIDE) put("\"");
        put_number(n->number);
        if (n->kind == NODE_WIDE) put("\"");
    }
}

void cn_boundary_init(void) {
    length = 0;
    put_node(&root);
    if (length >= sizeof text) length = 0;
    text[length] = 0;
}

const char *cn_boundary_tables(void) {
    cn_init();
    return text;
}
