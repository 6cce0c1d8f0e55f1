/*
 * split.c - a perft tree split into work units (see split.h).
 */
#include "include/split.h"

#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "position.h"

/* One unit's count under one root move while a level is built: the unit's
 * list, ascending by root, linked by index (0 ends it; nodes[0] is unused). */
typedef struct root_node {
    uint64_t count[2];
    size_t next;
    unsigned root;
} root_node;

typedef struct builder {
    const cn_split *in;
    cn_split *out;
    size_t capacity; /* units out's arrays (and heads) have room for */
    size_t *slots;   /* a hash table of unit index + 1 (0: empty), by key */
    size_t slot_mask;
    root_node *nodes;
    size_t node_count, node_capacity;
    size_t *heads; /* per unit: its first root_node, with root tracking */
    cn_status status;
} builder;

#define FIRST_SLOTS ((size_t)1 << 10)

/* The position its four FEN fields describe (see split.h). */
static void canonicalise(cn_position *p) {
    if (p->ep_square != CN_NO_SQUARE && !cn_ep_capture_legal(p)) {
        p->key ^= cn_polyglot_ep_key(p->ep_square);
        p->ep_square = CN_NO_SQUARE;
    }
    p->halfmove = 0;
    p->fullmove = 1;
    memset(p->reserved, 0, sizeof p->reserved);
}

/* sum += add in 128 bits; 0 when it overflows. */
static int add128(uint64_t *sum, const uint64_t *add) {
    const uint64_t low = sum[0] + add[0];
    const uint64_t carry = low < sum[0];
    const uint64_t high = sum[1] + add[1];
    const int overflow = high < sum[1] || high + carry < high;
    sum[0] = low;
    sum[1] = high + carry;
    return !overflow;
}

/* `array` grown to `count` elements of `size` bytes, or NULL (array kept). */
static void *grow(void *array, size_t count, size_t size) {
    return count > SIZE_MAX / size ? NULL : realloc(array, count * size);
}

static int grow_units(builder *b) {
    const size_t capacity = b->capacity ? b->capacity * 2 : 64;
    cn_position *positions = grow(b->out->positions, capacity, sizeof(cn_position));
    if (positions) b->out->positions = positions;
    uint64_t *multiplicities = grow(b->out->multiplicities, capacity, 2 * sizeof(uint64_t));
    if (multiplicities) b->out->multiplicities = multiplicities;
    size_t *heads = b->in->track_roots ? grow(b->heads, capacity, sizeof(size_t)) : NULL;
    if (heads) b->heads = heads;
    if (!positions || !multiplicities || (b->in->track_roots && !heads)) return 0;
    b->capacity = capacity;
    return 1;
}

/* Doubles the table (or makes the first) and places the units in it again. */
static int grow_slots(builder *b) {
    const size_t count = b->slots ? (b->slot_mask + 1) * 2 : FIRST_SLOTS;
    size_t *slots = calloc(count, sizeof(size_t));
    if (!slots) return 0;
    for (size_t u = 0; u < b->out->count; u++) {
        size_t s = (size_t)b->out->positions[u].key & (count - 1);
        while (slots[s]) s = (s + 1) & (count - 1);
        slots[s] = u + 1;
    }
    free(b->slots);
    b->slots = slots;
    b->slot_mask = count - 1;
    return 1;
}

/* The index of the unit equal to `child`, added when it is new (*added set). */
static cn_status find_or_add(builder *b, const cn_position *child, size_t *index, int *added) {
    size_t s = (size_t)child->key & b->slot_mask;
    for (; b->slots[s]; s = (s + 1) & b->slot_mask) {
        const cn_position *unit = &b->out->positions[b->slots[s] - 1];
        if (unit->key == child->key && memcmp(unit, child, sizeof *unit) == 0) {
            *index = b->slots[s] - 1;
            *added = 0;
            return CN_OK;
        }
    }
    if (b->out->count == b->capacity && !grow_units(b)) return CN_ERR_NO_MEMORY;
    const size_t u = b->out->count++;
    b->out->positions[u] = *child;
    b->out->multiplicities[2 * u] = b->out->multiplicities[2 * u + 1] = 0;
    if (b->heads) b->heads[u] = 0;
    b->slots[s] = u + 1;
    *index = u;
    *added = 1;
    /* At most half full: probes stay short. */
    if (b->out->count * 2 > b->slot_mask + 1 && !grow_slots(b)) return CN_ERR_NO_MEMORY;
    return CN_OK;
}

/* Adds count sequences under `root` to unit u's list, searching from after
 * node *after (0: from the head); *after becomes the node holding root, so
 * that a parent's ascending roots merge in one pass. */
static cn_status add_root(builder *b, size_t u, size_t *after, unsigned root, const uint64_t *count) {
    size_t previous = *after;
    size_t node = previous ? b->nodes[previous].next : b->heads[u];
    while (node && b->nodes[node].root < root) {
        previous = node;
        node = b->nodes[node].next;
    }
    if (node && b->nodes[node].root == root) {
        *after = node;
        return add128(b->nodes[node].count, count) ? CN_OK : CN_ERR_BAD_ARGUMENT;
    }
    if (b->node_count >= b->node_capacity) {
        const size_t capacity = b->node_capacity ? b->node_capacity * 2 : 256;
        root_node *nodes = grow(b->nodes, capacity, sizeof(root_node));
        if (!nodes) return CN_ERR_NO_MEMORY;
        b->nodes = nodes;
        b->node_capacity = capacity;
    }
    const size_t added = b->node_count++;
    b->nodes[added] = (root_node){{count[0], count[1]}, node, root};
    if (previous)
        b->nodes[previous].next = added;
    else
        b->heads[u] = added;
    *after = added;
    return CN_OK;
}

/* Unit u gains the sequences of `parent` through its move number `move`:
 * per root move, the parent's, or at ply 0 the move itself. */
static cn_status add_roots(builder *b, size_t u, size_t parent, int move) {
    const cn_split *in = b->in;
    size_t after = 0;
    if (!in->root_first) return add_root(b, u, &after, (unsigned)move, &in->multiplicities[2 * parent]);
    for (size_t j = in->root_first[parent]; j < in->root_first[parent + 1]; j++) {
        const cn_status status = add_root(b, u, &after, in->roots[j], &in->root_counts[2 * j]);
        if (status != CN_OK) return status;
    }
    return CN_OK;
}

static int add_child(void *user, size_t parent, int move, const cn_position *child) {
    builder *b = user;
    cn_position unit = *child;
    canonicalise(&unit);
    size_t u = 0;
    int added = 0;
    cn_status status = find_or_add(b, &unit, &u, &added);
    if (status == CN_OK && !add128(&b->out->multiplicities[2 * u], &b->in->multiplicities[2 * parent]))
        status = CN_ERR_BAD_ARGUMENT;
    if (status == CN_OK && b->in->track_roots) status = add_roots(b, u, parent, move);
    b->status = status;
    return status != CN_OK;
}

/* The root lists of the level built, as split.h lays them out. */
static cn_status pack_roots(builder *b) {
    cn_split *out = b->out;
    const size_t entries = b->node_count ? b->node_count - 1 : 0;
    out->root_first = malloc((out->count + 1) * sizeof(size_t));
    out->roots = malloc((entries ? entries : 1) * sizeof(uint16_t));
    out->root_counts = malloc((entries ? entries : 1) * 2 * sizeof(uint64_t));
    if (!out->root_first || !out->roots || !out->root_counts) return CN_ERR_NO_MEMORY;
    size_t j = 0;
    for (size_t u = 0; u < out->count; u++) {
        out->root_first[u] = j;
        for (size_t node = b->heads[u]; node; node = b->nodes[node].next, j++) {
            out->roots[j] = (uint16_t)b->nodes[node].root;
            out->root_counts[2 * j] = b->nodes[node].count[0];
            out->root_counts[2 * j + 1] = b->nodes[node].count[1];
        }
    }
    out->root_first[out->count] = j;
    return CN_OK;
}

void cn_split_free(cn_split *split) {
    free(split->positions);
    free(split->multiplicities);
    free(split->root_first);
    free(split->roots);
    free(split->root_counts);
    memset(split, 0, sizeof *split);
}

cn_status cn_split_expand(const cn_split *level, cn_split *out) {
    memset(out, 0, sizeof *out);
    if (level->track_roots && !level->root_first && level->count > 1) return CN_ERR_BAD_ARGUMENT;
    out->ply = level->ply + 1;
    out->track_roots = level->track_roots;
    out->root_move_count = level->root_move_count;
    memcpy(out->root_moves, level->root_moves, sizeof out->root_moves);
    builder b = {level, out, 0, NULL, 0, NULL, 1, 0, NULL, CN_OK};
    if (!grow_units(&b) || !grow_slots(&b)) b.status = CN_ERR_NO_MEMORY;
    if (b.status == CN_OK)
        cn_expand(level->positions, sizeof(cn_position), level->count, cn_legal_moves_sorted, add_child, &b);
    if (b.status == CN_OK && level->track_roots) b.status = pack_roots(&b);
    free(b.slots);
    free(b.nodes);
    free(b.heads);
    if (b.status != CN_OK) cn_split_free(out);
    return b.status;
}

/* The split at ply 0: the root alone. */
static cn_status root_level(const cn_position *root, int track_roots, cn_split *out) {
    memset(out, 0, sizeof *out);
    out->track_roots = track_roots;
    out->root_move_count = cn_legal_moves_sorted(root, out->root_moves);
    out->positions = malloc(sizeof(cn_position));
    out->multiplicities = malloc(2 * sizeof(uint64_t));
    if (!out->positions || !out->multiplicities) {
        cn_split_free(out);
        return CN_ERR_NO_MEMORY;
    }
    out->count = 1;
    out->positions[0] = *root;
    canonicalise(&out->positions[0]);
    out->multiplicities[0] = 1;
    out->multiplicities[1] = 0;
    return CN_OK;
}

cn_status cn_split_tree(const cn_position *root, int ply, size_t max_units, int track_roots, cn_split *out) {
    memset(out, 0, sizeof *out);
    if (ply < 0) return CN_ERR_BAD_ARGUMENT;
    cn_status status = cn_init();
    if (status != CN_OK) return status;
    /* Its units are for perft jobs, which count strict positions only. */
    if (cn_position_validate(root) != CN_OK || root->relaxed) return CN_ERR_BAD_POSITION;
    cn_split level;
    if ((status = root_level(root, track_roots != 0, &level)) != CN_OK) return status;
    while (level.ply < ply && level.count <= max_units) {
        cn_split next;
        status = cn_split_expand(&level, &next);
        cn_split_free(&level);
        if (status != CN_OK) return status;
        level = next;
    }
    *out = level;
    return CN_OK;
}
