/*
 * erren.analysis._kernel -- the table-driven hand-analysis kernel.
 *
 * A hand is 34 counts (kinds 1m..9m, 1p..9p, 1s..9s, 1z..7z) plus a number of wild tiles.  It is
 * cut into four blocks: the three suits (9 kinds, chows allowed) and the honors (7 kinds, no
 * chows).  For every block content, read as a base-5 number (the "key", digit i = count of the
 * block's i-th kind), a table holds, for m = 0..4 sets and p = 0/1 pair, the DISTANCE: the least
 * number of tiles that must be added to the block so that it contains m sets and p pairs, where
 * the target holds at most four tiles of a kind.  Combining the four blocks (min-plus convolution
 * over the split of n sets and the one pair) gives the regular-shape distance d of the hand: the
 * least number of tiles to add so that the natural tiles are a sub-multiset of a complete
 * n-sets-plus-a-pair hand.  The wilds fill w of those tiles, so
 *
 *     shanten = d - 1 - w        (-1: complete; 0: ready)
 *
 * with the capped (at most four of a kind once the wilds are resolved) semantics.
 *
 * Improving kinds ("necessary tiles") of a 3n+1 hand are exactly the union, over the argmin block
 * splits, of the kinds whose addition lowers the entry of their block -- read from the same
 * table at key + 5^i, so waits and effective tiles take one pass, not 34.
 *
 * The tables are built by two sweeps over the keys (see build_table); the suit table is 5^9 x 10
 * bytes (19.5 MB), the honor table 5^7 x 10 bytes (0.8 MB).  They are built once, at build time:
 * setup.py writes them (tables_image) to _kernel_tables.bin beside the compiled kernel, and every
 * process maps that file read-only at the first call that needs a table (importing stays cheap,
 * the pages are shared through the page cache).  The file starts with a header (magic, format,
 * the stamp of this source that setup.py compiles in, the four tables' sizes and offsets); a
 * missing, truncated or foreign file is never used: the tables are then built in memory at that
 * first call (tables_source() says which).  The environment variable ERREN_KERNEL_TABLES=PATH
 * names another file to map instead (the tests point it at damaged copies).
 *
 * Special shapes: seven pairs (a quad counts as two pairs), thirteen orphans, honors-and-knitted
 * (全不靠, including 七星不靠) at 13/14-tile totals, and knitted straight (组合龙: the nine
 * knitted tiles + n - 3 sets + a pair) at 13/14 and at 10/11 (one set melded), each as a distance
 * with its improving kinds.
 *
 * Uncapped wilds (Xiamen golds, which may be a fifth copy): is_complete/waits read a second pair
 * of tables (another 20.3 MB, in the same file; without it, built at the first uncapped call,
 * about as fast), whose targets have no cap: a target T is marked at min(T, 4) with the excess
 * copies it needs, so the uncapped distance is again one lookup per block.  The search
 * (complete_uncapped) stays as the reference the tables are tested against.
 *
 * Meld-aware cap (arcade R5.2, max_copies=4 with `held`): when a wild could give a melded kind a
 * fifth copy, is_complete and the candidate waits are settled by an exact search (groups_room)
 * in which a wild may stand for kind i only while concealed + held + wilds of i stay <= 4.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NK 34
#define NJ 10 /* (m, p): j = 2 * m + p, m = 0..4 sets, p = 0/1 pair */
#define SUIT_KEYS 1953125
#define HONOR_KEYS 78125
#define BIG 1000
#define MAX_TOTAL 14

enum {
    SH_REGULAR = 1,
    SH_SEVEN_PAIRS = 2,
    SH_ORPHANS = 4,
    SH_HONORS_KNITTED = 8,
    SH_KNITTED_STRAIGHT = 16,
    SH_ALL = 31,
};
#define N_SHAPES 5

static const int32_t P5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
static const int BLOCK_BASE[4] = {0, 9, 18, 27};
static const int BLOCK_ND[4] = {9, 9, 9, 7};
static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
/* the six ways to give the patterns 147, 258, 369 (offsets 0, 1, 2) to the suits m, p, s */
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* All four are set at the first call that needs them (ensure_tables), mapped from the tables file
 * (read-only) or built in memory. */
static const uint8_t *suit_tab = NULL;  /* SUIT_KEYS rows of NJ bytes (+ padding) */
static const uint8_t *honor_tab = NULL; /* HONOR_KEYS rows of NJ bytes (+ padding) */
/* The same tables without the four-copies cap on the target (Xiamen golds). */
static const uint8_t *unc_suit_tab = NULL, *unc_honor_tab = NULL;
static double unc_load_seconds = 0.0;
static double load_seconds = 0.0;
static const char *tables_from = NULL; /* "file" or "built", once the tables are set */

/* ------------------------------------------------------------------------------------------ */
/* Table construction                                                                         */

typedef struct {
    uint8_t *tab;
    int nd;      /* digits (kinds) of the block */
    int ngroups; /* nd pungs, then the chows */
    int cnt[9];
} Builder;

static int32_t key_of(const int *cnt, int nd) {
    int32_t key = 0;
    for (int i = nd - 1; i >= 0; i--) key = key * 5 + cnt[i];
    return key;
}

/* Mark every target (m sets + p pairs, at most 4 of a kind) with distance 0. */
static void mark_targets(Builder *b, int start, int m) {
    int32_t key = key_of(b->cnt, b->nd);
    b->tab[(size_t)key * NJ + 2 * m] = 0;
    for (int k = 0; k < b->nd; k++)
        if (b->cnt[k] <= 2) b->tab[(size_t)(key + 2 * P5[k]) * NJ + 2 * m + 1] = 0;
    if (m == 4) return;
    for (int g = start; g < b->ngroups; g++) {
        if (g < b->nd) {
            if (b->cnt[g] > 1) continue;
            b->cnt[g] += 3;
            mark_targets(b, g, m + 1);
            b->cnt[g] -= 3;
        } else {
            int s = g - b->nd;
            if (b->cnt[s] > 3 || b->cnt[s + 1] > 3 || b->cnt[s + 2] > 3) continue;
            b->cnt[s]++, b->cnt[s + 1]++, b->cnt[s + 2]++;
            mark_targets(b, g, m + 1);
            b->cnt[s]--, b->cnt[s + 1]--, b->cnt[s + 2]--;
        }
    }
}

/*
 * Uncapped targets (any number of copies): the target T is marked at key min(T, 4) with its
 * excess sum(max(0, T_i - 4)) -- the tiles beyond the fourth copy, which must be added whatever
 * the block holds (a block holds at most four of a kind).  tcnt holds T.
 */
static void mark_targets_unc(Builder *b, int *tcnt, int start, int m) {
    int clip[9], excess = 0;
    for (int k = 0; k < b->nd; k++) {
        clip[k] = tcnt[k] < 4 ? tcnt[k] : 4;
        excess += tcnt[k] > 4 ? tcnt[k] - 4 : 0;
    }
    int32_t key = key_of(clip, b->nd);
    uint8_t *cell = b->tab + (size_t)key * NJ + 2 * m;
    if (excess < *cell) *cell = (uint8_t)excess;
    for (int k = 0; k < b->nd; k++) { /* + a pair of k */
        int e2 = excess + (tcnt[k] + 2 > 4 ? tcnt[k] + 2 - (tcnt[k] > 4 ? tcnt[k] : 4) : 0);
        int c2 = tcnt[k] + 2 < 4 ? tcnt[k] + 2 : 4;
        uint8_t *pc = b->tab + (size_t)(key + (c2 - clip[k]) * P5[k]) * NJ + 2 * m + 1;
        if (e2 < *pc) *pc = (uint8_t)e2;
    }
    if (m == 4) return;
    for (int g = start; g < b->ngroups; g++) {
        if (g < b->nd) {
            tcnt[g] += 3;
            mark_targets_unc(b, tcnt, g, m + 1);
            tcnt[g] -= 3;
        } else {
            int q = g - b->nd;
            tcnt[q]++, tcnt[q + 1]++, tcnt[q + 2]++;
            mark_targets_unc(b, tcnt, g, m + 1);
            tcnt[q]--, tcnt[q + 1]--, tcnt[q + 2]--;
        }
    }
}

/*
 * contains(c) = c is a target or contains(c - e_i) for some i  -> sweep keys upwards (min of 0/255);
 * dist(c) = 0 if contains(c) else 1 + min over i with c_i < 4 of dist(c + e_i) -> sweep downwards.
 * (Adding one tile lowers the distance by at most one, and an optimal target always has a kind
 * with T_i > c_i, so the recurrence is exact.)
 */
static void build_table(uint8_t *tab, int nd, int chows, int uncapped) {
    int32_t nkeys = P5[nd];
    memset(tab, 0xFF, (size_t)nkeys * NJ);
    Builder b = {tab, nd, nd + (chows ? nd - 2 : 0), {0}};
    if (uncapped) {
        /* contains(c) becomes v(c) = the least excess of a target T with min(T, 4) <= c, and
         * dist(c) = min(v(c), 1 + min_i dist(c + e_i)): same two sweeps, min instead of 0/255. */
        int tcnt[9] = {0};
        mark_targets_unc(&b, tcnt, 0, 0);
    } else {
        mark_targets(&b, 0, 0);
    }

    int d[9] = {0};
    for (int32_t key = 0; key < nkeys; key++) {
        uint8_t *row = tab + (size_t)key * NJ;
        for (int i = 0; i < nd; i++) {
            if (!d[i]) continue;
            const uint8_t *nb = row - (size_t)P5[i] * NJ;
            for (int j = 0; j < NJ; j++) row[j] = nb[j] < row[j] ? nb[j] : row[j];
        }
        for (int i = 0; i < nd; i++) { /* odometer + 1 */
            if (++d[i] < 5) break;
            d[i] = 0;
        }
    }
    for (int i = 0; i < nd; i++) d[i] = 4;
    for (int32_t key = nkeys - 1; key >= 0; key--) {
        uint8_t *row = tab + (size_t)key * NJ;
        uint8_t mn[NJ];
        memset(mn, 0xFE, NJ);
        for (int i = 0; i < nd; i++) {
            if (d[i] == 4) continue;
            const uint8_t *nb = row + (size_t)P5[i] * NJ;
            for (int j = 0; j < NJ; j++) mn[j] = nb[j] < mn[j] ? nb[j] : mn[j];
        }
        for (int j = 0; j < NJ; j++)
            if (row[j] > mn[j] + 1) row[j] = (uint8_t)(mn[j] + 1);
        for (int i = 0; i < nd; i++) { /* odometer - 1 */
            if (d[i]-- > 0) break;
            d[i] = 4;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The tables file: a header, then the capped suit and honor tables, then the uncapped ones   */

#ifndef ERREN_KERNEL_STAMP
#define ERREN_KERNEL_STAMP 0 /* not compiled by setup.py: no stamp, so no file is ever mapped */
#endif
#define TABLES_MAGIC "erren-kt" /* 8 bytes, no NUL */
#define TABLES_FORMAT 1
#define TABLES_FILE "_kernel_tables.bin"
#define TABLES_ENV "ERREN_KERNEL_TABLES"
#define ALIGN64(x) (((x) + 63) & ~(uint64_t)63)

enum { T_SUIT, T_HONOR, T_UNC_SUIT, T_UNC_HONOR, N_TABLES };

typedef struct {
    char magic[8];              /* TABLES_MAGIC */
    uint32_t format, row_bytes; /* TABLES_FORMAT, NJ */
    uint64_t stamp;             /* ERREN_KERNEL_STAMP: setup.py's hash of this source */
    uint64_t bytes[N_TABLES];   /* each table's size ... */
    uint64_t offset[N_TABLES];  /* ... and where it starts in the file */
    uint64_t total;             /* the file's size */
} TablesHeader;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The one header this kernel writes and accepts: each table 64-byte aligned, with at least 16
 * bytes of zeros after it (the padding of the tables built in memory). */
static void tables_header(TablesHeader *h) {
    static const int32_t keys[N_TABLES] = {SUIT_KEYS, HONOR_KEYS, SUIT_KEYS, HONOR_KEYS};
    memset(h, 0, sizeof *h);
    memcpy(h->magic, TABLES_MAGIC, sizeof h->magic);
    h->format = TABLES_FORMAT;
    h->row_bytes = NJ;
    h->stamp = ERREN_KERNEL_STAMP;
    uint64_t at = ALIGN64(sizeof *h);
    for (int t = 0; t < N_TABLES; t++) {
        h->bytes[t] = (uint64_t)keys[t] * NJ;
        h->offset[t] = at;
        at = ALIGN64(at + h->bytes[t] + 16);
    }
    h->total = at;
}

/* The file's contents into `image` (h->total zeroed bytes): the header, then the four tables. */
static void build_image(uint8_t *image, const TablesHeader *h) {
    memcpy(image, h, sizeof *h);
    build_table(image + h->offset[T_SUIT], 9, 1, 0);
    build_table(image + h->offset[T_HONOR], 7, 0, 0);
    build_table(image + h->offset[T_UNC_SUIT], 9, 1, 1);
    build_table(image + h->offset[T_UNC_HONOR], 7, 0, 1);
}

/* Map the file at `path` read-only (never unmapped); NULL when it is missing, of another size or
 * its header is not `want`. */
static const uint8_t *map_tables(const char *path, const TablesHeader *want) {
    if (want->stamp == 0) return NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    void *base = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size == want->total)
        base = mmap(NULL, (size_t)want->total, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (base == MAP_FAILED) return NULL;
    if (memcmp(base, want, sizeof *want) != 0) {
        munmap(base, (size_t)want->total);
        return NULL;
    }
    return base;
}

/* The path of the file to map, as bytes: $ERREN_KERNEL_TABLES, else TABLES_FILE beside the
 * module's __file__.  NULL (no exception) when there is none. */
static PyObject *tables_path(PyObject *module) {
    const char *env = getenv(TABLES_ENV);
    if (env && *env) return PyBytes_FromString(env);
    PyObject *file = PyModule_GetFilenameObject(module);
    PyObject *enc = file ? PyUnicode_EncodeFSDefault(file) : NULL, *out = NULL;
    if (enc) {
        const char *s = PyBytes_AS_STRING(enc), *slash = strrchr(s, '/');
        size_t dir = slash ? (size_t)(slash - s) + 1 : 0, name = strlen(TABLES_FILE);
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(dir + name));
        if (out) {
            memcpy(PyBytes_AS_STRING(out), s, dir);
            memcpy(PyBytes_AS_STRING(out) + dir, TABLES_FILE, name);
        }
    }
    Py_XDECREF(file);
    Py_XDECREF(enc);
    PyErr_Clear();
    return out;
}

/* Build a suit and an honor table in fresh memory (0, or -1 with MemoryError). */
static int build_pair(int uncapped, const uint8_t **suit, const uint8_t **honor, double *seconds) {
    double t0 = now();
    uint8_t *st = malloc((size_t)SUIT_KEYS * NJ + 16);
    uint8_t *ht = malloc((size_t)HONOR_KEYS * NJ + 16);
    if (!st || !ht) {
        free(st);
        free(ht);
        PyErr_NoMemory();
        return -1;
    }
    build_table(st, 9, 1, uncapped);
    build_table(ht, 7, 0, uncapped);
    *honor = ht;
    *suit = st; /* last: the callers test the suit table */
    *seconds = now() - t0;
    return 0;
}

/*
 * Set the tables at the first call that needs them (every module function that reads one calls
 * this first): map the file, else build the capped tables (the uncapped ones then wait for
 * ensure_unc_tables).  0, or -1 with MemoryError.  Two threads may race to the first call (the
 * server analyses in worker threads); both hold the GIL, and only tables_path's Python calls could
 * hand it over (a garbage collection running a finalizer), so the test is repeated after them, and
 * the rest is plain C that keeps the GIL until every pointer is set: the init runs exactly once.
 */
static int ensure_tables(PyObject *module) {
    if (suit_tab) return 0;
    PyObject *path = tables_path(module);
    if (suit_tab) {
        Py_XDECREF(path);
        return 0;
    }
    double t0 = now();
    TablesHeader h;
    tables_header(&h);
    const uint8_t *base = path ? map_tables(PyBytes_AS_STRING(path), &h) : NULL;
    Py_XDECREF(path);
    if (!base) {
        if (build_pair(0, &suit_tab, &honor_tab, &load_seconds) < 0) return -1;
        tables_from = "built";
        return 0;
    }
    unc_honor_tab = base + h.offset[T_UNC_HONOR];
    unc_suit_tab = base + h.offset[T_UNC_SUIT];
    honor_tab = base + h.offset[T_HONOR];
    suit_tab = base + h.offset[T_SUIT];
    tables_from = "file";
    load_seconds = unc_load_seconds = now() - t0;
    return 0;
}

/* The uncapped tables, built at their first use when the file did not bring them (0 ok, -1
 * MemoryError; after ensure_tables, which all callers run first). */
static int ensure_unc_tables(void) {
    if (unc_suit_tab) return 0;
    return build_pair(1, &unc_suit_tab, &unc_honor_tab, &unc_load_seconds);
}

/* ------------------------------------------------------------------------------------------ */
/* Hands                                                                                      */

typedef struct {
    int c[NK];
    int w;   /* wilds */
    int n;   /* sets needed: total = 3n+1 or 3n+2 */
    int nat; /* natural tiles */
    int32_t key[4];
} Hand;

static void compute_keys(Hand *h) {
    for (int b = 0; b < 4; b++) h->key[b] = key_of(h->c + BLOCK_BASE[b], BLOCK_ND[b]);
}

/* C[m][p] = min over m1 + m2 = m, p1 + p2 = p of A[m1][p1] + B[m2][p2], for m <= n. */
static void conv(const int *A, const int *B, int *C, int n) {
    for (int m = 0; m <= 4; m++) {
        int b0 = BIG, b1 = BIG;
        if (m <= n) {
            for (int a = 0; a <= m; a++) {
                const int *x = A + 2 * a, *y = B + 2 * (m - a);
                int s = x[0] + y[0];
                if (s < b0) b0 = s;
                s = x[0] + y[1];
                if (s < b1) b1 = s;
                s = x[1] + y[0];
                if (s < b1) b1 = s;
            }
        }
        C[2 * m] = b0;
        C[2 * m + 1] = b1;
    }
}

/*
 * Regular distance of blocks with the given keys for n sets + a pair.  `c` are the counts that
 * the keys encode (for the "< 4" test of a drawable kind).  With nec != NULL, also the kinds
 * whose addition lowers the distance.
 */
static inline __attribute__((always_inline)) int reg_dist_in(const uint8_t *stab,
                                                             const uint8_t *htab,
                                                             const int32_t *key, int n,
                                                             const int *c, uint64_t *nec) {
    int R[4][NJ];
    const uint8_t *rows[4];
    for (int b = 0; b < 4; b++) {
        rows[b] = (b < 3 ? stab : htab) + (size_t)key[b] * NJ;
        for (int j = 0; j < NJ; j++) R[b][j] = rows[b][j];
    }
    int P01[NJ], S23[NJ];
    conv(R[0], R[1], P01, n);
    conv(R[2], R[3], S23, n);
    int d = BIG;
    for (int m = 0; m <= n; m++) {
        int s = P01[2 * m] + S23[2 * (n - m) + 1];
        if (s < d) d = s;
        s = P01[2 * m + 1] + S23[2 * (n - m)];
        if (s < d) d = s;
    }
    if (!nec) return d;
    int O[4][NJ];
    conv(R[1], S23, O[0], n);
    conv(R[0], S23, O[1], n);
    conv(P01, R[3], O[2], n);
    conv(P01, R[2], O[3], n);
    uint64_t out = 0;
    for (int b = 0; b < 4; b++) {
        unsigned am = 0;
        for (int m = 0; m <= n; m++)
            for (int p = 0; p < 2; p++)
                if (R[b][2 * m + p] && R[b][2 * m + p] + O[b][2 * (n - m) + 1 - p] == d)
                    am |= 1u << (2 * m + p);
        if (!am) continue;
        const uint8_t *row = rows[b];
        int base = BLOCK_BASE[b];
        for (int i = 0; i < BLOCK_ND[b]; i++) {
            if (c[base + i] >= 4) continue;
            const uint8_t *nr = row + (size_t)P5[i] * NJ;
            for (unsigned a = am; a; a &= a - 1) {
                int j = __builtin_ctz(a);
                if (nr[j] < row[j]) {
                    out |= 1ULL << (base + i);
                    break;
                }
            }
        }
    }
    *nec = out;
    return d;
}

static int reg_dist(const int32_t *key, int n, const int *c, uint64_t *nec) {
    return reg_dist_in(suit_tab, honor_tab, key, n, c, nec);
}

/* The same without the four-copies cap (the uncapped tables must be built: ensure_unc_tables). */
static int reg_dist_unc(const int32_t *key, int n, const int *c, uint64_t *nec) {
    return reg_dist_in(unc_suit_tab, unc_honor_tab, key, n, c, nec);
}

static int seven_pairs_dist(const Hand *h, uint64_t *nec) {
    int P = 0, S = 0;
    uint64_t odd = 0, even = 0;
    for (int i = 0; i < NK; i++) {
        int v = h->c[i];
        P += v >> 1;
        S += v & 1;
        if (v & 1)
            odd |= 1ULL << i;
        else if (v < 4)
            even |= 1ULL << i;
    }
#define SP_D(P_, S_) ((7 - (P_)) <= (S_) ? (7 - (P_) > 0 ? 7 - (P_) : 0) : (S_) + 2 * (7 - (P_) - (S_)))
    int d = SP_D(P, S);
    if (nec) {
        uint64_t out = 0;
        if (SP_D(P + 1, S - 1) < d) out |= odd;
        if (SP_D(P, S + 1) < d) out |= even;
        *nec = out;
    }
    return d;
#undef SP_D
}

static int orphans_dist(const Hand *h, uint64_t *nec) {
    int distinct = 0, pair = 0;
    for (int k = 0; k < 13; k++) {
        int v = h->c[ORPHANS[k]];
        distinct += v > 0;
        pair |= v > 1;
    }
    int d = 13 - distinct + !pair;
    if (nec) {
        uint64_t out = 0;
        for (int k = 0; k < 13; k++) {
            int t = ORPHANS[k], v = h->c[t];
            if (v == 0 || (!pair && v < 4)) out |= 1ULL << t;
        }
        *nec = out;
    }
    return d;
}

static inline int knitted_kind(int perm, int suit, int j) {
    return 9 * suit + PERMS[perm][suit] + 3 * j;
}

static int honors_knitted_dist(const Hand *h, uint64_t *nec) {
    int honors = 0;
    for (int t = 27; t < NK; t++) honors += h->c[t] > 0;
    int best = BIG;
    uint64_t out = 0;
    for (int p = 0; p < 6; p++) {
        int present = honors;
        uint64_t missing = 0;
        for (int s = 0; s < 3; s++)
            for (int j = 0; j < 3; j++) {
                int t = knitted_kind(p, s, j);
                if (h->c[t])
                    present++;
                else
                    missing |= 1ULL << t;
            }
        int d = 14 - (present < 14 ? present : 14);
        if (d < best) {
            best = d;
            out = 0;
        }
        if (d == best && d > 0) out |= missing;
    }
    if (nec) {
        uint64_t hm = 0;
        for (int t = 27; t < NK; t++)
            if (!h->c[t]) hm |= 1ULL << t;
        *nec = best > 0 ? (out | hm) : 0;
    }
    return best;
}

/* Perms whose missing knitted tiles alone exceed `cutoff` are skipped (BIG if all are). */
static int knitted_straight_dist(const Hand *h, uint64_t *nec, int cutoff) {
    int best = BIG;
    uint64_t out = 0;
    int c2[NK];
    for (int p = 0; p < 6; p++) {
        int missing = 0;
        for (int s = 0; s < 3; s++)
            for (int j = 0; j < 3; j++) missing += !h->c[knitted_kind(p, s, j)];
        if (missing > cutoff) continue;
        memcpy(c2, h->c, sizeof c2);
        missing = 0;
        uint64_t miss = 0;
        for (int s = 0; s < 3; s++)
            for (int j = 0; j < 3; j++) {
                int t = knitted_kind(p, s, j);
                if (c2[t])
                    c2[t]--;
                else
                    missing++, miss |= 1ULL << t;
            }
        int32_t key[4];
        for (int b = 0; b < 4; b++) key[b] = key_of(c2 + BLOCK_BASE[b], BLOCK_ND[b]);
        uint64_t m2 = 0;
        int d = missing + reg_dist(key, h->n - 3, c2, nec ? &m2 : NULL);
        if (d < best) {
            best = d;
            out = 0;
        }
        if (d == best) out |= miss | m2;
    }
    if (nec) {
        uint64_t full = 0;
        for (int t = 0; t < NK; t++)
            if (h->c[t] >= 4) full |= 1ULL << t;
        *nec = out & ~full;
    }
    return best;
}

static int shape_dist(const Hand *h, int shape, uint64_t *nec, int cutoff) {
    switch (shape) {
        case SH_REGULAR: return reg_dist(h->key, h->n, h->c, nec);
        case SH_SEVEN_PAIRS: return seven_pairs_dist(h, nec);
        case SH_ORPHANS: return orphans_dist(h, nec);
        case SH_HONORS_KNITTED: return honors_knitted_dist(h, nec);
        default: return knitted_straight_dist(h, nec, cutoff);
    }
}

/* The shapes of `mask` that exist for the hand's total: all at 13/14 tiles, 组合龙 also at 10/11
 * (its one set may be a meld), only the regular shape below. */
static inline int applicable(const Hand *h, int mask) {
    return h->n == 4 ? mask : h->n == 3 ? (mask & (SH_REGULAR | SH_KNITTED_STRAIGHT)) : (mask & SH_REGULAR);
}

/* Shanten over the shapes of `mask` (min), with the union of improving kinds of the argmin
 * shapes in *nec when nec != NULL.  per_shape (optional, 5 entries) gets each shape's shanten or
 * BIG when the shape does not apply. */
static int analyse(const Hand *h, int mask, uint64_t *nec, int *per_shape) {
    int m = applicable(h, mask);
    int best = BIG, sh[N_SHAPES];
    for (int s = 0; s < N_SHAPES; s++) {
        sh[s] = BIG;
        if (m & (1 << s)) {
            /* only a distance below the best so far matters (or equal to it, for nec) */
            int cutoff = (per_shape || best == BIG) ? BIG : best + h->w + (nec != NULL);
            sh[s] = shape_dist(h, 1 << s, NULL, cutoff) - 1 - h->w;
            if (sh[s] > BIG - 20) sh[s] = BIG;
            if (sh[s] < best) best = sh[s];
        }
        if (per_shape) per_shape[s] = sh[s];
    }
    if (nec) {
        uint64_t out = 0;
        for (int s = 0; s < N_SHAPES; s++) {
            if (sh[s] != best) continue;
            uint64_t x = 0;
            shape_dist(h, 1 << s, &x, best + 1 + h->w);
            out |= x;
        }
        *nec = out;
    }
    return best;
}

static int is_complete_capped(const Hand *h, int mask) {
    int m = applicable(h, mask);
    for (int s = 0; s < N_SHAPES; s++)
        if ((m & (1 << s)) && shape_dist(h, 1 << s, NULL, h->w) <= h->w) return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Uncapped completeness: the Xiamen search (golds may be a fifth copy)                 */

static int groups_unc(int *c, int k, int n, int lo) {
    while (lo < NK && !c[lo]) lo++;
    if (lo == NK) return 1; /* the k == 3n wilds make wild-only groups */
    if (n == 0) return 0;
    int i = lo;
    int u = c[i] < 3 ? c[i] : 3;
    if (k >= 3 - u) {
        c[i] -= u;
        int r = groups_unc(c, k - (3 - u), n - 1, i);
        c[i] += u;
        if (r) return 1;
    }
    if (i < 27) {
        int base = i - i % 9;
        for (int s = i - 2; s <= i; s++) {
            if (s < base || s > base + 6) continue;
            int need = 0, used[3] = {0, 0, 0};
            for (int q = 0; q < 3; q++) {
                int j = s + q;
                if (j < i)
                    need++;
                else if (j == i || c[j] > 0)
                    used[q] = 1;
                else
                    need++;
            }
            if (need > k) continue;
            for (int q = 0; q < 3; q++) c[s + q] -= used[q];
            int r = groups_unc(c, k - need, n - 1, i);
            for (int q = 0; q < 3; q++) c[s + q] += used[q];
            if (r) return 1;
        }
    }
    return 0;
}

static int complete_uncapped(const int *counts, int k, int n) {
    int c[NK];
    memcpy(c, counts, sizeof c);
    for (int p = 0; p < NK; p++) {
        if (c[p] >= 2) {
            c[p] -= 2;
            int r = groups_unc(c, k, n, 0);
            c[p] += 2;
            if (r) return 1;
        }
        if (c[p] >= 1 && k >= 1) {
            c[p] -= 1;
            int r = groups_unc(c, k - 1, n, 0);
            c[p] += 1;
            if (r) return 1;
        }
    }
    return k >= 2 && groups_unc(c, k - 2, n, 0);
}

/* Whether a wild could be a fifth copy at all: some kind reaches five with every wild on it
 * (`extra` more natural tiles of the fullest kind, for a 3n+1 hand about to draw). */
static inline int could_be_fifth(const Hand *h, int extra) {
    int maxc = 0;
    for (int i = 0; i < NK; i++) maxc = h->c[i] > maxc ? h->c[i] : maxc;
    return h->w > 0 && maxc + extra + h->w >= 5;
}

/* Regular completeness without the four-copies cap: the uncapped table (tables built). */
static int regular_complete_uncapped(const Hand *h) {
    return reg_dist_unc(h->key, h->n, h->c, NULL) <= h->w;
}

/* ------------------------------------------------------------------------------------------ */
/* Meld-aware cap (arcade R5.2): wilds may not give a kind more than room[i] = 4 - held[i] -
 * counts[i] further copies.  Exact search, run only when some wild could break that.         */

/* Like groups_unc, but a wild may stand for kind i only while room[i] > 0.  Wild-only groups
 * always have a kind with room (at most 14 concealed tiles and 4 melds touch few of 34). */
static int groups_room(int *c, int *room, int k, int n, int lo) {
    while (lo < NK && !c[lo]) lo++;
    if (lo == NK) return 1;
    if (n == 0) return 0;
    int i = lo;
    int u = c[i] < 3 ? c[i] : 3;
    if (k >= 3 - u && room[i] >= 3 - u) {
        c[i] -= u, room[i] -= 3 - u;
        int r = groups_room(c, room, k - (3 - u), n - 1, i);
        c[i] += u, room[i] += 3 - u;
        if (r) return 1;
    }
    if (i < 27) {
        int base = i - i % 9;
        for (int s = i - 2; s <= i; s++) {
            if (s < base || s > base + 6) continue;
            int need = 0, used[3] = {0, 0, 0}, ok = 1;
            for (int q = 0; q < 3; q++) {
                int j = s + q;
                if (j == i || (j > i && c[j] > 0))
                    used[q] = 1;
                else
                    need++, ok &= room[j] > 0;
            }
            if (need > k || !ok) continue;
            for (int q = 0; q < 3; q++) {
                if (used[q])
                    c[s + q]--;
                else
                    room[s + q]--;
            }
            int r = groups_room(c, room, k - need, n - 1, i);
            for (int q = 0; q < 3; q++) {
                if (used[q])
                    c[s + q]++;
                else
                    room[s + q]++;
            }
            if (r) return 1;
        }
    }
    return 0;
}

/* counts + k wilds = n sets + a pair, wilds within room. */
static int complete_room(int *c, int *room, int k, int n) {
    for (int p = 0; p < NK; p++) {
        if (c[p] >= 2) {
            c[p] -= 2;
            int r = groups_room(c, room, k, n, 0);
            c[p] += 2;
            if (r) return 1;
        }
        if (c[p] >= 1 && k >= 1 && room[p] >= 1) {
            c[p] -= 1, room[p] -= 1;
            int r = groups_room(c, room, k - 1, n, 0);
            c[p] += 1, room[p] += 1;
            if (r) return 1;
        }
    }
    return k >= 2 && groups_room(c, room, k - 2, n, 0);
}

/* 组合龙 within room: the knitted tiles of one layout (a missing one is a wild), then the
 * n - 3 sets and the pair. */
static int knitted_complete_room(const Hand *h, const int *room0) {
    int c[NK], room[NK];
    for (int p = 0; p < 6; p++) {
        memcpy(c, h->c, sizeof c);
        memcpy(room, room0, sizeof room);
        int k = h->w, ok = 1;
        for (int s = 0; s < 3 && ok; s++)
            for (int j = 0; j < 3 && ok; j++) {
                int t = knitted_kind(p, s, j);
                if (c[t])
                    c[t]--;
                else if (k > 0 && room[t] > 0)
                    k--, room[t]--;
                else
                    ok = 0;
            }
        if (ok && complete_room(c, room, k, h->n - 3)) return 1;
    }
    return 0;
}

/* Whether the held cap can matter: a kind in a meld that the wilds could push past four. */
static int held_binds(const Hand *h, const int *held) {
    for (int i = 0; i < NK; i++)
        if (held[i] && h->c[i] + held[i] + h->w > 4) return 1;
    return 0;
}

/* Completeness of a 3n+2 hand with the meld-aware cap (held_binds(h, held) should hold).  The
 * shapes that need 13/14 concealed tiles have no melds and keep the plain cap. */
static int is_complete_held(const Hand *h, int mask, const int *held) {
    if (!is_complete_capped(h, mask)) return 0; /* the per-kind caps only remove completions */
    int m = applicable(h, mask);
    int plain = m & (SH_SEVEN_PAIRS | SH_ORPHANS | SH_HONORS_KNITTED);
    if (plain && is_complete_capped(h, plain)) return 1;
    int room[NK], c[NK];
    for (int i = 0; i < NK; i++) room[i] = 4 - held[i] - h->c[i];
    if (m & SH_REGULAR) {
        memcpy(c, h->c, sizeof c);
        if (complete_room(c, room, h->w, h->n)) return 1;
    }
    if ((m & SH_KNITTED_STRAIGHT) && knitted_complete_room(h, room)) return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Argument parsing                                                                           */

static PyObject *analysis_error(void) {
    static PyObject *cls = NULL;
    if (!cls) {
        PyObject *mod = PyImport_ImportModule("erren.errors");
        if (mod) {
            cls = PyObject_GetAttrString(mod, "AnalysisError");
            Py_DECREF(mod);
        }
        if (!cls) {
            PyErr_Clear();
            return PyExc_ValueError;
        }
    }
    return cls;
}

#define FAIL(...) (PyErr_Format(analysis_error(), __VA_ARGS__), -1)

/* Read 34 ints in 0..4 (0..limit). */
static int read_counts(PyObject *obj, int *c, const char *name) {
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of 34 ints");
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len != NK) {
        Py_DECREF(seq);
        return FAIL("%s must have 34 entries (one per kind), got %zd", name, len);
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < NK; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v > 4) {
            Py_DECREF(seq);
            return FAIL("%s[%d] = %ld: a kind has 0 to 4 copies", name, i, v);
        }
        c[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

enum { NEED_ANY = 0, NEED_1 = 1, NEED_2 = 2 };

/* Parse counts and wilds, check the total, fill the hand.  need: NEED_1 = 3n+1 only, NEED_2 =
 * 3n+2 only, NEED_ANY = either. */
static int read_hand(Hand *h, PyObject *counts, PyObject *wilds, int need, const char *what) {
    if (read_counts(counts, h->c, "counts") < 0) return -1;
    long w = PyLong_AsLong(wilds);
    if (w == -1 && PyErr_Occurred()) return -1;
    if (w < 0 || w > MAX_TOTAL) return FAIL("wilds = %ld: must be between 0 and 14", w);
    int nat = 0;
    for (int i = 0; i < NK; i++) nat += h->c[i];
    int total = nat + (int)w;
    int r = total % 3;
    if (total > MAX_TOTAL || r == 0 || (need == NEED_1 && r != 1) || (need == NEED_2 && r != 2)) {
        const char *form = need == NEED_1   ? "3n+1 tiles (1, 4, 7, 10 or 13)"
                           : need == NEED_2 ? "3n+2 tiles (2, 5, 8, 11 or 14)"
                                            : "3n+1 or 3n+2 tiles (at most 14)";
        return FAIL("%s needs %s, got %d (%d natural + %ld wild)", what, form, total, nat, w);
    }
    h->w = (int)w;
    h->nat = nat;
    h->n = (total - 1) / 3;
    compute_keys(h);
    return 0;
}

static int read_mask(PyObject *obj) {
    long m = PyLong_AsLong(obj);
    if (m == -1 && PyErr_Occurred()) return -1;
    if (m <= 0 || m > SH_ALL) return FAIL("shape mask %ld: must be a non-empty set of shapes", m);
    return (int)m;
}

static int read_max_copies(PyObject *obj) {
    if (obj == Py_None) return 0;
    long m = PyLong_AsLong(obj);
    if (m == -1 && PyErr_Occurred()) return -1;
    if (m != 4) return FAIL("max_copies = %ld: only 4 (capped) or None (uncapped) are supported", m);
    return 4;
}

static PyObject *kinds_list(uint64_t mask) {
    PyObject *list = PyList_New(__builtin_popcountll(mask));
    if (!list) return NULL;
    Py_ssize_t k = 0;
    for (; mask; mask &= mask - 1) PyList_SET_ITEM(list, k++, PyLong_FromLong(__builtin_ctzll(mask)));
    return list;
}

static PyObject *kinds_tuple(uint64_t mask) {
    PyObject *tup = PyTuple_New(__builtin_popcountll(mask));
    if (!tup) return NULL;
    Py_ssize_t k = 0;
    for (; mask; mask &= mask - 1) PyTuple_SET_ITEM(tup, k++, PyLong_FromLong(__builtin_ctzll(mask)));
    return tup;
}

#define CHECK_NARGS(name, lo, hi)                                                              \
    if (nargs < (lo) || nargs > (hi)) {                                                        \
        PyErr_Format(PyExc_TypeError, name "() takes %d to %d positional arguments (%zd given)", \
                     (lo), (hi), nargs);                                                       \
        return NULL;                                                                           \
    }

/* ------------------------------------------------------------------------------------------ */
/* Module functions                                                                           */

PyDoc_STRVAR(shanten_doc,
             "shanten(counts, wilds, mask, /) -> int\n\n"
             "Shanten (-1 complete) of a 3n+1 or 3n+2 hand, min over the shapes in mask.");

static PyObject *k_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("shanten", 3, 3);
    if (ensure_tables(self) < 0) return NULL;
    Hand h;
    int mask = read_mask(args[2]);
    if (mask < 0 || read_hand(&h, args[0], args[1], NEED_ANY, "shanten") < 0) return NULL;
    return PyLong_FromLong(analyse(&h, mask, NULL, NULL));
}

PyDoc_STRVAR(shanten_by_shape_doc,
             "shanten_by_shape(counts, wilds, mask, /) -> tuple[int | None, ...]\n\n"
             "Shanten of each of the five shapes (bit order), None where it does not apply.");

static PyObject *k_shanten_by_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("shanten_by_shape", 3, 3);
    if (ensure_tables(self) < 0) return NULL;
    Hand h;
    int mask = read_mask(args[2]);
    if (mask < 0 || read_hand(&h, args[0], args[1], NEED_ANY, "shanten_by_shape") < 0) return NULL;
    int per[N_SHAPES];
    analyse(&h, mask, NULL, per);
    PyObject *tup = PyTuple_New(N_SHAPES);
    if (!tup) return NULL;
    for (int s = 0; s < N_SHAPES; s++) {
        PyObject *v = per[s] == BIG ? Py_NewRef(Py_None) : PyLong_FromLong(per[s]);
        PyTuple_SET_ITEM(tup, s, v);
    }
    return tup;
}

/* Read `held` (meld tiles of each kind; None: no melds) into held[]; returns 1 when some kind is
 * held, 0 when none, -1 on error (also when concealed + held exceed four of a kind). */
static int read_held(PyObject *obj, const Hand *h, int *held) {
    if (obj == Py_None) return 0;
    if (read_counts(obj, held, "held") < 0) return -1;
    int any = 0;
    for (int i = 0; i < NK; i++) {
        if (h->c[i] + held[i] > 4)
            return FAIL("counts[%d] + held[%d] = %d: a kind has at most 4 copies", i, i,
                        h->c[i] + held[i]);
        any |= held[i];
    }
    return any != 0;
}

/* The arguments is_complete and waits share: (counts, wilds, mask, ...) with max_copies at
   position cap_at and held at position held_at (both optional; max_copies defaults to 4).
   Sets *any when some kind is held in a meld. 0, or -1 with an exception set. */
static int read_capped(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t cap_at,
                       Py_ssize_t held_at, int need, const char *name, Hand *h, int *mask,
                       int *cap, int *held, int *any) {
    *any = 0;
    if ((*mask = read_mask(args[2])) < 0) return -1;
    *cap = nargs > cap_at ? read_max_copies(args[cap_at]) : 4;
    if (*cap < 0 || read_hand(h, args[0], args[1], need, name) < 0) return -1;
    if (nargs > held_at && args[held_at] != Py_None && (*any = read_held(args[held_at], h, held)) < 0)
        return -1;
    return 0;
}

PyDoc_STRVAR(is_complete_doc,
             "is_complete(counts, wilds, mask, max_copies, held, /) -> bool\n\n"
             "Whether a 3n+2 hand is complete; max_copies is 4 (capped: concealed + held at most "
             "four of a kind) or None (uncapped wilds).");

static PyObject *k_is_complete(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("is_complete", 3, 5);
    if (ensure_tables(self) < 0) return NULL;
    Hand h;
    int mask, cap, held[NK], any;
    if (read_capped(args, nargs, 3, 4, NEED_2, "is_complete", &h, &mask, &cap, held, &any) < 0)
        return NULL;
    if (cap && any && h.w && h.n < 4 && held_binds(&h, held))
        return PyBool_FromLong(is_complete_held(&h, mask, held));
    int ok = is_complete_capped(&h, mask);
    if (!ok && cap == 0 && (applicable(&h, mask) & SH_REGULAR) && could_be_fifth(&h, 0)) {
        if (ensure_unc_tables() < 0) return NULL;
        ok = regular_complete_uncapped(&h);
    }
    return PyBool_FromLong(ok);
}

/* Waits of a 3n+1 hand, as a kind mask (before the held filter); -1 on error. */
static int wait_mask(Hand *h, int mask, int cap, uint64_t *waits) {
    uint64_t nec = 0;
    int s = analyse(h, mask, &nec, NULL);
    uint64_t out = s == 0 ? nec : 0;
    if (!cap && (applicable(h, mask) & SH_REGULAR) && could_be_fifth(h, 1)) {
        /* Uncapped regular waits: the kinds that lower the uncapped distance from w + 1 to w. */
        if (ensure_unc_tables() < 0) return -1;
        uint64_t unc = 0;
        if (reg_dist_unc(h->key, h->n, h->c, &unc) == h->w + 1) out |= unc;
    }
    *waits = out;
    return 0;
}

/* Drop the waits t for which hand + t is not complete under the meld-aware cap. */
static uint64_t held_filter(Hand *h, int mask, const int *held, uint64_t out) {
    Hand g = *h;
    g.n = h->n; /* 3n+1 + 1 = 3n+2: same n */
    for (uint64_t x = out; x; x &= x - 1) {
        int t = __builtin_ctzll(x);
        g.c[t]++;
        if (held_binds(&g, held)) {
            compute_keys(&g);
            if (!is_complete_held(&g, mask, held)) out &= ~(1ULL << t);
        }
        g.c[t]--;
    }
    return out;
}

PyDoc_STRVAR(waits_doc,
             "waits(counts, wilds, mask, held, max_copies, /) -> list[int]\n\n"
             "Kinds that complete a 3n+1 hand, leaving out kinds with counts + held >= 4; with "
             "max_copies=4 the resolved hand plus held has at most four of a kind.");

static PyObject *k_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("waits", 3, 5);
    if (ensure_tables(self) < 0) return NULL;
    Hand h;
    int mask, cap, held[NK], any;
    if (read_capped(args, nargs, 4, 3, NEED_1, "waits", &h, &mask, &cap, held, &any) < 0)
        return NULL;
    uint64_t out = 0;
    if (wait_mask(&h, mask, cap, &out) < 0) return NULL;
    if (any && out) {
        for (int t = 0; t < NK; t++)
            if (h.c[t] + held[t] >= 4) out &= ~(1ULL << t);
        if (cap && h.w && h.n < 4 && out) out = held_filter(&h, mask, held, out);
    }
    return kinds_list(out);
}

PyDoc_STRVAR(improving_doc,
             "improving(counts, wilds, mask, /) -> tuple[int, list[int]]\n\n"
             "(shanten, kinds whose draw lowers it) of a 3n+1 hand.");

static PyObject *k_improving(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("improving", 3, 3);
    if (ensure_tables(self) < 0) return NULL;
    Hand h;
    int mask = read_mask(args[2]);
    if (mask < 0 || read_hand(&h, args[0], args[1], NEED_1, "improving") < 0) return NULL;
    uint64_t nec = 0;
    int s = analyse(&h, mask, &nec, NULL);
    PyObject *list = kinds_list(nec);
    if (!list) return NULL;
    return Py_BuildValue("(iN)", s, list);
}

typedef struct {
    int discard; /* kind, or -1 for a wild */
    int shanten;
    int remaining;
    uint64_t eff;
} Row;

static int row_cmp(const void *pa, const void *pb) {
    const Row *a = pa, *b = pb;
    if (a->shanten != b->shanten) return a->shanten < b->shanten ? -1 : 1;
    if (a->remaining != b->remaining) return a->remaining > b->remaining ? -1 : 1;
    int na = __builtin_popcountll(a->eff), nb = __builtin_popcountll(b->eff);
    if (na != nb) return na > nb ? -1 : 1;
    unsigned ka = (unsigned)a->discard, kb = (unsigned)b->discard; /* a wild (-1) sorts last */
    return ka < kb ? -1 : ka > kb;
}

PyDoc_STRVAR(discard_rows_doc,
             "discard_rows(counts, wilds, mask, visible, /) -> list[tuple[int | None, int, "
             "tuple[int, ...], int]]\n\n"
             "One (discard, shanten, effective, remaining) row per distinct discard of a 3n+2 "
             "hand, best first.");

static PyObject *k_discard_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("discard_rows", 3, 4);
    if (ensure_tables(self) < 0) return NULL;
    Hand h;
    int mask = read_mask(args[2]);
    if (mask < 0 || read_hand(&h, args[0], args[1], NEED_2, "discard_table") < 0) return NULL;
    int vis[NK];
    if (nargs > 3 && args[3] != Py_None) {
        if (read_counts(args[3], vis, "visible") < 0) return NULL;
    } else {
        memcpy(vis, h.c, sizeof vis);
    }
    Row rows[NK + 1];
    int nrows = 0;
    Hand g = h;
    g.n = h.n; /* 3n+2 - 1 = 3n+1: same n */
    for (int t = -1; t < NK; t++) {
        if (t < 0) {
            if (!h.w) continue;
            g.w = h.w - 1;
        } else {
            if (!h.c[t]) continue;
            g.w = h.w;
            g.c[t]--;
            int b = t < 27 ? t / 9 : 3;
            g.key[b] -= P5[t - BLOCK_BASE[b]];
        }
        uint64_t nec = 0;
        int s = analyse(&g, mask, &nec, NULL);
        int rem = 0;
        for (uint64_t x = nec; x; x &= x - 1) {
            int k = __builtin_ctzll(x);
            rem += vis[k] < 4 ? 4 - vis[k] : 0;
        }
        rows[nrows++] = (Row){t, s, rem, nec};
        if (t >= 0) {
            g.c[t]++;
            int b = t < 27 ? t / 9 : 3;
            g.key[b] += P5[t - BLOCK_BASE[b]];
        }
    }
    qsort(rows, (size_t)nrows, sizeof(Row), row_cmp);
    PyObject *list = PyList_New(nrows);
    if (!list) return NULL;
    for (int r = 0; r < nrows; r++) {
        PyObject *eff = kinds_tuple(rows[r].eff);
        PyObject *disc = rows[r].discard < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(rows[r].discard);
        PyObject *tup = (eff && disc)
                            ? Py_BuildValue("(NiNi)", disc, rows[r].shanten, eff, rows[r].remaining)
                            : NULL;
        if (!tup) {
            Py_XDECREF(eff);
            Py_XDECREF(disc);
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, r, tup);
    }
    return list;
}

PyDoc_STRVAR(block_row_doc,
             "block_row(counts, honors, uncapped=False, /) -> tuple[int, ...]\n\n"
             "The table row of one block (9 suit counts, or 7 honor counts with honors=True): the "
             "distance for (m, p) at index 2*m + p; uncapped: targets may hold five or more of a "
             "kind.");

static PyObject *k_block_row(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("block_row", 2, 3);
    if (ensure_tables(self) < 0) return NULL;
    int honors = PyObject_IsTrue(args[1]);
    if (honors < 0) return NULL;
    int uncapped = nargs > 2 ? PyObject_IsTrue(args[2]) : 0;
    if (uncapped < 0 || (uncapped && ensure_unc_tables() < 0)) return NULL;
    int nd = honors ? 7 : 9;
    PyObject *seq = PySequence_Fast(args[0], "expected a sequence of ints");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != nd) {
        Py_DECREF(seq);
        PyErr_Format(analysis_error(), "a block has %d kinds", nd);
        return NULL;
    }
    int c[9];
    for (int i = 0; i < nd; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((v == -1 && PyErr_Occurred()) || v < 0 || v > 4) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_Format(analysis_error(), "block counts must be 0..4");
            return NULL;
        }
        c[i] = (int)v;
    }
    Py_DECREF(seq);
    const uint8_t *tab = uncapped ? (honors ? unc_honor_tab : unc_suit_tab)
                                  : (honors ? honor_tab : suit_tab);
    const uint8_t *row = tab + (size_t)key_of(c, nd) * NJ;
    PyObject *tup = PyTuple_New(NJ);
    if (!tup) return NULL;
    for (int j = 0; j < NJ; j++) PyTuple_SET_ITEM(tup, j, PyLong_FromLong(row[j]));
    return tup;
}

PyDoc_STRVAR(complete_uncapped_doc,
             "complete_uncapped(counts, wilds, /) -> bool\n\n"
             "The Xiamen R-3.3 search alone: regular completeness, wilds may be a fifth copy.");

static PyObject *k_complete_uncapped(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    CHECK_NARGS("complete_uncapped", 2, 2);
    Hand h;
    if (read_hand(&h, args[0], args[1], NEED_2, "complete_uncapped") < 0) return NULL;
    return PyBool_FromLong(complete_uncapped(h.c, h.w, h.n));
}

PyDoc_STRVAR(tables_source_doc,
             "tables_source() -> str | None\n\n"
             "Where the tables came from: 'file' (mapped from the tables file), 'built' (in "
             "memory, the file missing or not this kernel's), None before the first call that "
             "needs them.");

static PyObject *k_tables_source(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self, (void)args;
    CHECK_NARGS("tables_source", 0, 0);
    if (!tables_from) Py_RETURN_NONE;
    return PyUnicode_FromString(tables_from);
}

PyDoc_STRVAR(tables_seconds_doc,
             "tables_seconds() -> float | None\n\n"
             "Seconds the first call that needed the tables took to map the file or build the "
             "capped tables (None: no such call yet).");

static PyObject *k_tables_seconds(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self, (void)args;
    CHECK_NARGS("tables_seconds", 0, 0);
    if (!suit_tab) Py_RETURN_NONE;
    return PyFloat_FromDouble(load_seconds);
}

PyDoc_STRVAR(uncapped_tables_seconds_doc,
             "uncapped_tables_seconds() -> float | None\n\n"
             "Seconds the uncapped tables took: to build at their first use, or to map the file "
             "(with the capped ones: tables_seconds()).  None: not set yet.");

static PyObject *k_uncapped_tables_seconds(PyObject *self, PyObject *const *args,
                                           Py_ssize_t nargs) {
    (void)self, (void)args;
    CHECK_NARGS("uncapped_tables_seconds", 0, 0);
    if (!unc_suit_tab) Py_RETURN_NONE;
    return PyFloat_FromDouble(unc_load_seconds);
}

PyDoc_STRVAR(tables_image_doc,
             "tables_image() -> bytes\n\n"
             "The contents of a tables file, every table built afresh (setup.py writes it to "
             "TABLES_FILE beside the kernel).");

static PyObject *k_tables_image(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self, (void)args;
    CHECK_NARGS("tables_image", 0, 0);
    TablesHeader h;
    tables_header(&h);
    PyObject *image = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)h.total);
    if (!image) return NULL;
    memset(PyBytes_AS_STRING(image), 0, (size_t)h.total);
    build_image((uint8_t *)PyBytes_AS_STRING(image), &h);
    return image;
}

PyDoc_STRVAR(tables_match_built_doc,
             "tables_match_built() -> bool\n\n"
             "Whether the four tables in use (mapped or built) equal freshly built ones byte for "
             "byte (builds them all: about a second).");

static PyObject *k_tables_match_built(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    CHECK_NARGS("tables_match_built", 0, 0);
    if (ensure_tables(self) < 0 || ensure_unc_tables() < 0) return NULL;
    PyObject *image = k_tables_image(self, args, 0);
    if (!image) return NULL;
    TablesHeader h;
    tables_header(&h);
    const uint8_t *in_use[N_TABLES] = {suit_tab, honor_tab, unc_suit_tab, unc_honor_tab};
    const uint8_t *fresh = (const uint8_t *)PyBytes_AS_STRING(image);
    int same = 1;
    for (int t = 0; t < N_TABLES; t++)
        same &= memcmp(in_use[t], fresh + h.offset[t], (size_t)h.bytes[t]) == 0;
    Py_DECREF(image);
    return PyBool_FromLong(same);
}

static PyMethodDef kernel_methods[] = {
    {"shanten", (PyCFunction)(void (*)(void))k_shanten, METH_FASTCALL, shanten_doc},
    {"shanten_by_shape", (PyCFunction)(void (*)(void))k_shanten_by_shape, METH_FASTCALL,
     shanten_by_shape_doc},
    {"is_complete", (PyCFunction)(void (*)(void))k_is_complete, METH_FASTCALL, is_complete_doc},
    {"waits", (PyCFunction)(void (*)(void))k_waits, METH_FASTCALL, waits_doc},
    {"improving", (PyCFunction)(void (*)(void))k_improving, METH_FASTCALL, improving_doc},
    {"discard_rows", (PyCFunction)(void (*)(void))k_discard_rows, METH_FASTCALL, discard_rows_doc},
    {"block_row", (PyCFunction)(void (*)(void))k_block_row, METH_FASTCALL, block_row_doc},
    {"complete_uncapped", (PyCFunction)(void (*)(void))k_complete_uncapped, METH_FASTCALL,
     complete_uncapped_doc},
    {"tables_source", (PyCFunction)(void (*)(void))k_tables_source, METH_FASTCALL,
     tables_source_doc},
    {"tables_seconds", (PyCFunction)(void (*)(void))k_tables_seconds, METH_FASTCALL,
     tables_seconds_doc},
    {"uncapped_tables_seconds", (PyCFunction)(void (*)(void))k_uncapped_tables_seconds,
     METH_FASTCALL, uncapped_tables_seconds_doc},
    {"tables_image", (PyCFunction)(void (*)(void))k_tables_image, METH_FASTCALL, tables_image_doc},
    {"tables_match_built", (PyCFunction)(void (*)(void))k_tables_match_built, METH_FASTCALL,
     tables_match_built_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(module_doc,
             "Table-driven hand analysis: shanten, improving kinds, waits, win check and discard "
             "rows over count arrays.  Use erren.analysis.shanten / waits, not this module.\n\n"
             "The tables are built once, at build time, into TABLES_FILE beside this module, and "
             "mapped read-only at the first call that needs them (built in memory instead when the "
             "file is missing or not this kernel's: tables_source()).  ERREN_KERNEL_TABLES=PATH in "
             "the environment names another file to map.");

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_kernel", module_doc, -1, kernel_methods, NULL, NULL, NULL, NULL,
};

/* No table work here: importing stays cheap, the tables are set at their first use. */
PyMODINIT_FUNC PyInit__kernel(void) {
    PyObject *mod = PyModule_Create(&kernel_module);
    if (!mod) return NULL;
    if (PyModule_AddIntConstant(mod, "TABLE_BYTES", (long)((size_t)(SUIT_KEYS + HONOR_KEYS) * NJ)) < 0 ||
        PyModule_AddStringConstant(mod, "TABLES_FILE", TABLES_FILE) < 0 ||
        PyModule_AddIntConstant(mod, "REGULAR", SH_REGULAR) < 0 ||
        PyModule_AddIntConstant(mod, "SEVEN_PAIRS", SH_SEVEN_PAIRS) < 0 ||
        PyModule_AddIntConstant(mod, "THIRTEEN_ORPHANS", SH_ORPHANS) < 0 ||
        PyModule_AddIntConstant(mod, "HONORS_AND_KNITTED", SH_HONORS_KNITTED) < 0 ||
        PyModule_AddIntConstant(mod, "KNITTED_STRAIGHT", SH_KNITTED_STRAIGHT) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
