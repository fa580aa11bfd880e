/*
 * erren.rl._planes -- the shared cells of the observation planes, read straight from the engine's
 * State (the environments' fast path; erren.rl.encoder is the entry point), and the action mask.
 *
 * encode() writes exactly what erren.rl.encoder wrote in Python before (kept as the reference
 * erren.testing.rl_planes; tests/rl/test_fast_planes.py holds the two byte-identical): the
 * player's concealed tiles, the tile he just drew, the pending tile, both seat blocks (visible
 * melds, the opponent's 暗杠 as a count, discards, flowers, facts), the seat to act, the shared
 * game facts (wall, dealer streak, phase, origin), the round wind and the family's column.  Only
 * what the player may see is read.  A family's own cells (its rl part's encode) stay in Python
 * (erren.rl.encoder._family): a plug-in family's planes need no C.  mark() writes a mask,
 * indices() reads the action indices of the legal moves from erren.rl.encoder's memo.
 *
 * The layout (which cell is which) is not known here: configure() gets every offset, the phase
 * and origin column dicts and the engine's enum members from erren.rl.encoder at import, so the
 * cells follow the registered families' layout (a later family's columns move the origins).
 * A value is written as the Python code writes it: a count scaled by its top in double
 * precision, clipped at 1, then stored as float32.  The fields are read by name from the state
 * (State's plain attributes; the wall's count as Board.wall_count computes it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NK 34 /* tile kinds 1m..7z */
#define MAX_COPIES 64 /* a count >= this is refused (the Python path raised IndexError too) */

typedef struct {
    Py_ssize_t chow, pung, kong, concealed_kong, discards, last_discard, flowers;
    Py_ssize_t ting, trustee, dealer, to_act, concealed, hidden_kongs, discard_count, flower_count;
} SeatCells;

static struct {
    int ready;
    Py_ssize_t size, hand, last_drawn, pending, round_wind, game, wall, streak;
    SeatCells me, opp;
    PyObject *chi, *peng, *an_gang;               /* MeldKind members */
    PyObject *deal, *end, *turn, *claim;          /* Phase.DEAL, END, TURN; Origin.CLAIM */
} cfg;

/* Interned attribute names. */
static PyObject *s_hands, *s_melds, *s_discards, *s_flowers, *s_ting, *s_trustee, *s_dealer,
    *s_phase, *s_actor, *s_origin, *s_last_added, *s_pending, *s_ruleset, *s_drawn_tile_phases,
    *s_wall, *s_head, *s_tail, *s_streak, *s_round_wind, *s_kind, *s_tiles;

/* One encoding being written: cells [at, at + size) of a float32 buffer. */
typedef struct {
    float *cells;
    Py_ssize_t at;
    Py_ssize_t size;
} Out;

static int put(Out *o, Py_ssize_t cell, double value) {
    if (cell < 0 || cell >= o->size) {
        PyErr_Format(PyExc_IndexError, "cell %zd outside the planes", cell);
        return -1;
    }
    o->cells[o->at + cell] = (float)value;
    return 0;
}

static double scaled(long value, double top) {
    double x = (double)value / top;
    return x < 1.0 ? x : 1.0;
}

/* A Python int (or int subclass: Tile, bool) as a long; -1 with an error set on failure.  An
 * exact int of one digit (every count and tile) is read directly on CPython 3.11. */
static int as_long(PyObject *obj, long *out) {
#if PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API)
    if (PyLong_CheckExact(obj)) {
        Py_ssize_t size = Py_SIZE(obj);
        if (size >= -1 && size <= 1) {
            *out = (long)size * (long)((PyLongObject *)obj)->ob_digit[0];
            return 0;
        }
    }
#endif
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

static PyObject *get(PyObject *obj, PyObject *name) { return PyObject_GetAttr(obj, name); }

/* The state's per-seat lists, each read once (new references). */
typedef struct {
    PyObject *hands, *melds, *discards, *flowers, *ting, *trustee;
} Fields;

static void release(Fields *f) {
    Py_XDECREF(f->hands);
    Py_XDECREF(f->melds);
    Py_XDECREF(f->discards);
    Py_XDECREF(f->flowers);
    Py_XDECREF(f->ting);
    Py_XDECREF(f->trustee);
}

static int fetch(Fields *f, PyObject *state) {
    memset(f, 0, sizeof(*f));
    if (!(f->hands = get(state, s_hands)) || !(f->melds = get(state, s_melds)) ||
        !(f->discards = get(state, s_discards)) || !(f->flowers = get(state, s_flowers)) ||
        !(f->ting = get(state, s_ting)) || !(f->trustee = get(state, s_trustee))) {
        release(f);
        return -1;
    }
    return 0;
}

/* The seat's item of a per-seat list: a new reference. */
static PyObject *item_of(PyObject *seq, int seat) { return PySequence_GetItem(seq, seat); }

/* The `>= 1 .. >= 4` planes from `base` of the tiles in `seq` (kinds >= NK left out). */
static int counts(Out *o, Py_ssize_t base, PyObject *seq, int *seen) {
    PyObject *fast = PySequence_Fast(seq, "tiles must be a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long kind;
        if (as_long(items[i], &kind) < 0) goto fail;
        if (kind < NK) {
            if (kind < 0) {
                PyErr_Format(PyExc_IndexError, "tile kind %ld", kind);
                goto fail;
            }
            int c = seen[kind];
            if (c < 4) {
                if (put(o, base + c * NK + kind, 1.0) < 0) goto fail;
                seen[kind] = c + 1;
            }
        }
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    return -1;
}

static int first_tile(PyObject *meld, long *kind) {
    PyObject *tiles = get(meld, s_tiles);
    if (!tiles) return -1;
    PyObject *first = PySequence_GetItem(tiles, 0);
    Py_DECREF(tiles);
    if (!first) return -1;
    int rc = as_long(first, kind);
    Py_DECREF(first);
    return rc;
}

/* A seat's visible melds; *hidden = the number of his 暗杠 this player may not see. */
static int melds(Out *o, PyObject *list, const SeatCells *b, int own, long *hidden) {
    int seen[NK] = {0};
    Py_ssize_t n = PyList_GET_SIZE(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *meld = PyList_GET_ITEM(list, i);
        PyObject *kind = get(meld, s_kind);
        if (!kind) return -1;
        Py_DECREF(kind); /* an enum member: kept alive by its class */
        long tile;
        if (kind == cfg.chi) {
            PyObject *tiles = get(meld, s_tiles);
            if (!tiles) return -1;
            int rc = counts(o, b->chow, tiles, seen);
            Py_DECREF(tiles);
            if (rc < 0) return -1;
            continue;
        }
        if (kind == cfg.an_gang && !own) {
            *hidden += 1;
            continue;
        }
        if (first_tile(meld, &tile) < 0) return -1;
        Py_ssize_t plane = kind == cfg.peng ? b->pung : kind == cfg.an_gang ? b->concealed_kong
                                                                             : b->kong;
        if (put(o, plane + tile, 1.0) < 0) return -1;
    }
    return 0;
}

/* Whether the seat's item of a per-seat list is true; -1 on error. */
static int seat_flag(PyObject *seq, int seat) {
    PyObject *item = item_of(seq, seat);
    if (!item) return -1;
    int truth = PyObject_IsTrue(item);
    Py_DECREF(item);
    return truth;
}

/* The counts of a hand as a fast sequence (a new reference). */
static PyObject *hand_of(const Fields *f, int seat) {
    PyObject *hand = item_of(f->hands, seat);
    if (!hand) return NULL;
    PyObject *fast = PySequence_Fast(hand, "a hand must be a sequence of counts");
    Py_DECREF(hand);
    return fast;
}

/* A seat's discards: their counts, the latest, how many. */
static int seat_discards(Out *o, const Fields *f, int seat, const SeatCells *b) {
    PyObject *discards = item_of(f->discards, seat);
    if (!discards) return -1;
    Py_ssize_t n = PySequence_Size(discards);
    int rc = n < 0 ? -1 : 0;
    if (n > 0) {
        int seen[NK] = {0};
        long last;
        PyObject *item = PySequence_GetItem(discards, n - 1);
        rc = !item || as_long(item, &last) < 0 || counts(o, b->discards, discards, seen) < 0 ||
                     put(o, b->last_discard + last, 1.0) < 0 ||
                     put(o, b->discard_count, scaled((long)n, 40)) < 0
                 ? -1
                 : 0;
        Py_XDECREF(item);
    }
    Py_DECREF(discards);
    return rc;
}

/* A seat's flowers (kinds >= NK) and how many. */
static int seat_flowers(Out *o, const Fields *f, int seat, const SeatCells *b) {
    PyObject *flowers = item_of(f->flowers, seat);
    if (!flowers) return -1;
    PyObject *fast = PySequence_Fast(flowers, "flowers must be a sequence");
    Py_DECREF(flowers);
    if (!fast) return -1;
    int rc = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
        long flower;
        rc = as_long(PySequence_Fast_GET_ITEM(fast, i), &flower);
        if (rc == 0 && flower >= NK) rc = put(o, b->flowers + flower, 1.0);
    }
    Py_DECREF(fast);
    if (rc == 0 && n) rc = put(o, b->flower_count, scaled((long)n, 8));
    return rc;
}

static int seat_block(Out *o, const Fields *f, int seat, const SeatCells *b, long dealer) {
    PyObject *list = item_of(f->melds, seat);
    if (!list) return -1;
    if (!PyList_Check(list)) {
        Py_DECREF(list);
        PyErr_SetString(PyExc_TypeError, "a seat's melds must be a list");
        return -1;
    }
    long hidden = 0;
    int rc = melds(o, list, b, b == &cfg.me, &hidden);
    Py_DECREF(list);
    if (rc < 0) return -1;
    if (hidden && put(o, b->hidden_kongs, scaled(hidden, 4)) < 0) return -1;
    if (seat_discards(o, f, seat, b) < 0 || seat_flowers(o, f, seat, b) < 0) return -1;

    PyObject *fast = hand_of(f, seat);
    if (!fast) return -1;
    long concealed = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
        long c;
        rc = as_long(PySequence_Fast_GET_ITEM(fast, i), &c);
        concealed += c;
    }
    Py_DECREF(fast);
    if (rc < 0) return -1;
    if (concealed && put(o, b->concealed, scaled(concealed, 14)) < 0) return -1;

    int ting = seat_flag(f->ting, seat);
    if (ting < 0 || (ting && put(o, b->ting, 1.0) < 0)) return -1;
    int trustee = seat_flag(f->trustee, seat);
    if (trustee < 0 || (trustee && put(o, b->trustee, 1.0) < 0)) return -1;
    if (dealer == seat && put(o, b->dealer, 1.0) < 0) return -1;
    return 0;
}

/* The player's concealed tiles: count c of kind k marks the planes `>= 1 .. >= min(c, 4)`. */
static int own_hand(Out *o, const Fields *f, int player) {
    PyObject *fast = hand_of(f, player);
    if (!fast) return -1;
    int rc = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t kind = 0; kind < n && rc == 0; kind++) {
        long c;
        rc = as_long(PySequence_Fast_GET_ITEM(fast, kind), &c);
        if (rc < 0) break;
        if (c < 0 || c >= MAX_COPIES) {
            PyErr_Format(PyExc_IndexError, "a count of %ld copies", c);
            rc = -1;
            break;
        }
        for (long copy = 0; copy < c && copy < 4 && rc == 0; copy++)
            rc = put(o, cfg.hand + copy * NK + kind, 1.0);
    }
    Py_DECREF(fast);
    return rc;
}

/* The tile the player just drew: on his TURN after a draw (not a claim), or in a family's phase
 * that decides on a drawn tile. */
static int last_drawn(Out *o, PyObject *state, PyObject *phase, int player) {
    PyObject *origin = get(state, s_origin);
    if (!origin) return -1;
    int drew = phase == cfg.turn && origin != Py_None && origin != cfg.claim;
    Py_DECREF(origin);
    if (!drew) {
        PyObject *ruleset = get(state, s_ruleset);
        if (!ruleset) return -1;
        PyObject *phases = get(ruleset, s_drawn_tile_phases);
        Py_DECREF(ruleset);
        if (!phases) return -1;
        drew = PySequence_Contains(phases, phase);
        Py_DECREF(phases);
        if (drew < 0) return -1;
    }
    if (!drew) return 0;
    PyObject *seq = get(state, s_last_added);
    PyObject *item = seq ? item_of(seq, player) : NULL;
    Py_XDECREF(seq);
    long last;
    int rc = item ? as_long(item, &last) : -1;
    Py_XDECREF(item);
    if (rc < 0) return -1;
    return 0 <= last && last < NK ? put(o, cfg.last_drawn + last, 1.0) : 0;
}

static int long_attr(PyObject *obj, PyObject *name, long *out) {
    PyObject *value = get(obj, name);
    if (!value) return -1;
    int rc = as_long(value, out);
    Py_DECREF(value);
    return rc;
}

/* The columns of the phases and origins met so far, by the key's identity (they are enum
 * members: looking them up in the dict calls Enum's __hash__ in Python).  A key is held by a
 * strong reference while it is remembered. */
#define REMEMBERED 32
typedef struct {
    PyObject *dict;
    int n;
    PyObject *keys[REMEMBERED];
    long columns[REMEMBERED]; /* -1: absent from the dict */
} Columns;

static Columns phase_columns, origin_columns;

static void forget(Columns *c, PyObject *dict) {
    for (int i = 0; i < c->n; i++) Py_CLEAR(c->keys[i]);
    c->n = 0;
    Py_INCREF(dict);
    Py_XSETREF(c->dict, dict);
}

/* A column from one of the configured dicts: 0 found, 1 absent, -1 error. */
static int column(Columns *c, PyObject *key, long *col) {
    for (int i = 0; i < c->n; i++)
        if (c->keys[i] == key) {
            *col = c->columns[i];
            return *col < 0 ? 1 : 0;
        }
    PyObject *found = PyDict_GetItemWithError(c->dict, key);
    if (!found && PyErr_Occurred()) return -1;
    long value = -1;
    if (found && (as_long(found, &value) < 0 || value < 0)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a negative column");
        return -1;
    }
    if (c->n < REMEMBERED) {
        Py_INCREF(key);
        c->keys[c->n] = key;
        c->columns[c->n++] = value;
    }
    *col = value;
    return found ? 0 : 1;
}

/* Board.wall_count without the call of a property: the live wall's tiles left. */
static int wall_count(PyObject *state, long *count) {
    long head, tail;
    PyObject *wall = get(state, s_wall);
    if (!wall) return -1;
    int some = PyObject_IsTrue(wall);
    Py_DECREF(wall);
    if (some <= 0) {
        *count = 0;
        return some;
    }
    if (long_attr(state, s_head, &head) < 0 || long_attr(state, s_tail, &tail) < 0) return -1;
    *count = tail - head + 1 > 0 ? tail - head + 1 : 0;
    return 0;
}

/* The game plane's shared facts and the round wind. */
static int game(Out *o, PyObject *state, PyObject *phase, int acting) {
    long wall, streak, wind, col;
    if (wall_count(state, &wall) < 0) return -1;
    if (wall && put(o, cfg.wall, scaled(wall, 144)) < 0) return -1;
    if (long_attr(state, s_streak, &streak) < 0) return -1;
    if (streak && put(o, cfg.streak, scaled(streak, 8)) < 0) return -1;
    int rc = column(&phase_columns, phase, &col);
    if (rc < 0 || (rc == 0 && put(o, cfg.game + col, 1.0) < 0)) return -1;
    if (acting) {
        PyObject *origin = get(state, s_origin);
        if (!origin) return -1;
        if (origin != Py_None) {
            rc = column(&origin_columns, origin, &col);
            if (rc == 1) PyErr_SetObject(PyExc_KeyError, origin);
            rc = rc != 0 ? -1 : put(o, cfg.game + col, 1.0);
        }
        Py_DECREF(origin);
        if (rc < 0) return -1;
    }
    if (long_attr(state, s_round_wind, &wind) < 0) return -1;
    return wind < NK ? put(o, cfg.round_wind + wind, 1.0) : 0;
}

static int encode_state(Out *o, PyObject *state, int player) {
    PyObject *phase = get(state, s_phase);
    if (!phase) return -1;
    Py_DECREF(phase); /* an enum member: kept alive by its class */
    int acting = phase != cfg.deal && phase != cfg.end;
    long actor = -1, pending, dealer;
    if (acting && long_attr(state, s_actor, &actor) < 0) return -1;
    Fields f;
    if (fetch(&f, state) < 0) return -1;
    int rc = own_hand(o, &f, player) < 0 ||
                     (actor == player && last_drawn(o, state, phase, player) < 0) ||
                     long_attr(state, s_pending, &pending) < 0 ||
                     (0 <= pending && pending < NK && put(o, cfg.pending + pending, 1.0) < 0) ||
                     long_attr(state, s_dealer, &dealer) < 0 ||
                     seat_block(o, &f, player, &cfg.me, dealer) < 0 ||
                     seat_block(o, &f, 1 - player, &cfg.opp, dealer) < 0
                 ? -1
                 : 0;
    release(&f);
    if (rc < 0) return -1;
    if (actor >= 0 && put(o, (actor == player ? &cfg.me : &cfg.opp)->to_act, 1.0) < 0) return -1;
    return game(o, state, phase, acting);
}

PyDoc_STRVAR(encode_doc,
             "encode(cells, at, state, player, family_column, /) -> None\n\n"
             "Write the shared cells of player's planes of state into the float32 buffer cells "
             "from the cell at (every cell of the encoding is zeroed first), and 1 in the game "
             "plane's column family_column unless it is -1; a family's own cells are left to the "
             "caller.");

static PyObject *p_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "encode() takes 5 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!cfg.ready) {
        PyErr_SetString(PyExc_RuntimeError, "erren.rl._planes.configure() was not called");
        return NULL;
    }
    Py_ssize_t at = PyLong_AsSsize_t(args[1]);
    if (at == -1 && PyErr_Occurred()) return NULL;
    long player, family;
    if (as_long(args[3], &player) < 0 || as_long(args[4], &family) < 0) return NULL;
    if (player != 0 && player != 1) {
        PyErr_SetString(PyExc_ValueError, "player must be seat 0 or 1");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE) < 0) return NULL;
    Py_ssize_t total = view.len / (Py_ssize_t)sizeof(float);
    if ((uintptr_t)view.buf % sizeof(float) || at < 0 || at + cfg.size > total) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "no room for the planes from cell %zd of %zd", at, total);
        return NULL;
    }
    Out o = {(float *)view.buf, at, cfg.size};
    memset(o.cells + at, 0, (size_t)cfg.size * sizeof(float));
    int rc = encode_state(&o, args[2], (int)player);
    if (rc == 0 && family != -1) rc = put(&o, cfg.game + family, 1.0);
    PyBuffer_Release(&view);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(mark_doc,
             "mark(mask, at, size, indices, /) -> None\n\n"
             "Zero the bytes [at, at + size) of the int8 buffer mask and write 1 at at + i for "
             "each i of indices (each in 0 .. size - 1).");

static PyObject *p_mark(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "mark() takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t at = PyLong_AsSsize_t(args[1]);
    if (at == -1 && PyErr_Occurred()) return NULL;
    Py_ssize_t size = PyLong_AsSsize_t(args[2]);
    if (size == -1 && PyErr_Occurred()) return NULL;
    PyObject *fast = PySequence_Fast(args[3], "indices must be a sequence");
    if (!fast) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE) < 0) {
        Py_DECREF(fast);
        return NULL;
    }
    int rc = 0;
    if (at < 0 || size < 0 || at + size > view.len) {
        PyErr_Format(PyExc_ValueError, "no room for %zd marks from byte %zd of %zd", size, at,
                     view.len);
        rc = -1;
    } else {
        char *marks = (char *)view.buf + at;
        memset(marks, 0, (size_t)size);
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
            long index;
            rc = as_long(PySequence_Fast_GET_ITEM(fast, i), &index);
            if (rc == 0 && (index < 0 || index >= size)) {
                PyErr_Format(PyExc_IndexError, "index %ld outside 0 .. %zd", index, size - 1);
                rc = -1;
            }
            if (rc == 0) marks[index] = 1;
        }
    }
    PyBuffer_Release(&view);
    Py_DECREF(fast);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(indices_doc,
             "indices(actions, memo, /) -> list[int] | None\n\n"
             "memo[id(a)] for each a of actions (a list), or None if one is not in memo.");

static PyObject *p_indices(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2 || !PyList_Check(args[0]) || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "indices() takes a list and a dict");
        return NULL;
    }
    PyObject *actions = args[0], *memo = args[1];
    Py_ssize_t n = PyList_GET_SIZE(actions);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyLong_FromVoidPtr(PyList_GET_ITEM(actions, i));
        if (!key) goto fail;
        PyObject *found = PyDict_GetItemWithError(memo, key);
        Py_DECREF(key);
        if (!found) {
            if (PyErr_Occurred()) goto fail;
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        Py_INCREF(found);
        PyList_SET_ITEM(out, i, found);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static int offset(PyObject *offsets, const char *name, Py_ssize_t *out) {
    PyObject *value = PyDict_GetItemString(offsets, name);
    if (!value) {
        PyErr_Format(PyExc_KeyError, "configure(): no offset %s", name);
        return -1;
    }
    *out = PyLong_AsSsize_t(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int seat_offsets(PyObject *offsets, const char *who, SeatCells *b) {
    static const char *names[] = {
        "chow",    "pung",   "kong",   "concealed_kong", "discards",     "last_discard",
        "flowers", "ting",   "trustee", "dealer",        "to_act",       "concealed",
        "hidden_kongs",      "discard_count",            "flower_count",
    };
    Py_ssize_t *fields[] = {
        &b->chow,    &b->pung,   &b->kong,    &b->concealed_kong, &b->discards, &b->last_discard,
        &b->flowers, &b->ting,   &b->trustee, &b->dealer,         &b->to_act,   &b->concealed,
        &b->hidden_kongs,        &b->discard_count,               &b->flower_count,
    };
    char key[64];
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
        snprintf(key, sizeof(key), "%s.%s", who, names[i]);
        if (offset(offsets, key, fields[i]) < 0) return -1;
    }
    return 0;
}

PyDoc_STRVAR(configure_doc,
             "configure(offsets, phase_columns, origin_columns, chi, peng, an_gang, deal, end, "
             "turn, claim, /) -> None\n\n"
             "The layout: the cell of each shared fact (offsets: a dict by name), the game "
             "plane's column of each phase and origin, and the engine's MeldKind.CHI, PENG, "
             "AN_GANG, Phase.DEAL, END, TURN and Origin.CLAIM.");

static PyObject *p_configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *offsets, *phases, *origins, *objs[7];
    if (!PyArg_ParseTuple(args, "O!O!O!OOOOOOO:configure", &PyDict_Type, &offsets, &PyDict_Type,
                          &phases, &PyDict_Type, &origins, &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6]))
        return NULL;
    cfg.ready = 0;
    if (offset(offsets, "size", &cfg.size) < 0 || offset(offsets, "hand", &cfg.hand) < 0 ||
        offset(offsets, "last_drawn", &cfg.last_drawn) < 0 ||
        offset(offsets, "pending", &cfg.pending) < 0 ||
        offset(offsets, "round_wind", &cfg.round_wind) < 0 ||
        offset(offsets, "game", &cfg.game) < 0 || offset(offsets, "wall", &cfg.wall) < 0 ||
        offset(offsets, "streak", &cfg.streak) < 0 || seat_offsets(offsets, "me", &cfg.me) < 0 ||
        seat_offsets(offsets, "opp", &cfg.opp) < 0)
        return NULL;
    forget(&phase_columns, phases);
    forget(&origin_columns, origins);
    PyObject **slots[] = {&cfg.chi, &cfg.peng, &cfg.an_gang, &cfg.deal,
                          &cfg.end, &cfg.turn, &cfg.claim};
    for (size_t i = 0; i < sizeof(slots) / sizeof(*slots); i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*slots[i], objs[i]);
    }
    cfg.ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef planes_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))p_encode, METH_FASTCALL, encode_doc},
    {"mark", (PyCFunction)(void (*)(void))p_mark, METH_FASTCALL, mark_doc},
    {"indices", (PyCFunction)(void (*)(void))p_indices, METH_FASTCALL, indices_doc},
    {"configure", (PyCFunction)p_configure, METH_VARARGS, configure_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(module_doc,
             "The shared cells of erren.rl's observation planes, read from the engine's State.  "
             "Use erren.rl.encoder.encode_state / encode_into, not this module.");

static struct PyModuleDef planes_module = {
    PyModuleDef_HEAD_INIT, "_planes", module_doc, -1, planes_methods, NULL, NULL, NULL, NULL,
};

static int intern(PyObject **slot, const char *name) {
    *slot = PyUnicode_InternFromString(name);
    return *slot ? 0 : -1;
}

PyMODINIT_FUNC PyInit__planes(void) {
    if (intern(&s_hands, "hands") < 0 || intern(&s_melds, "melds") < 0 ||
        intern(&s_discards, "discards") < 0 || intern(&s_flowers, "flowers") < 0 ||
        intern(&s_ting, "ting") < 0 || intern(&s_trustee, "trustee") < 0 ||
        intern(&s_dealer, "dealer") < 0 || intern(&s_phase, "phase") < 0 ||
        intern(&s_actor, "actor") < 0 || intern(&s_origin, "origin") < 0 ||
        intern(&s_last_added, "last_added") < 0 || intern(&s_pending, "pending") < 0 ||
        intern(&s_ruleset, "ruleset") < 0 ||
        intern(&s_drawn_tile_phases, "drawn_tile_phases") < 0 ||
        intern(&s_wall, "wall") < 0 || intern(&s_head, "head") < 0 ||
        intern(&s_tail, "tail") < 0 || intern(&s_streak, "streak") < 0 ||
        intern(&s_round_wind, "round_wind") < 0 || intern(&s_kind, "kind") < 0 ||
        intern(&s_tiles, "tiles") < 0)
        return NULL;
    return PyModule_Create(&planes_module);
}
