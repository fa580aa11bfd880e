/*
 * erren.families.guobiao.scoring._fastfan -- the Guobiao fan calculation (tables `gb` and `2p`) in one C call.
 *
 * The Python calculator (calculator.py, facts.py, fans.py, combos.py, _waits.py) is the
 * specification and the oracle: this file mirrors it step by step for hands without wilds and
 * returns the fans (table rows and counts) and the total of the best reading.  The data -- fan
 * ids, values per table, guards, exclusions, absorptions, feature bit positions -- comes from
 * the generated _fastfan_tables.h (gen_fastfan.py), so only the detectors are written twice.
 *
 *   1. the hand: counts, the hand-level feature bits (HandFacts), validation;
 *   2. every reading (guobiao-2p §5.2 step 1): the regular decompositions of the concealed part
 *      enumerated once each (at the lowest kind: pair or not, pung or not, the rest chows), seven
 *      pairs, and in `gb` 十三幺, 全不靠/七星不靠 and 组合龙 (+ a set + the pair);
 *   3. per reading (Facts): groups, A2 concealed pungs, set bits, the chow and pung combinations
 *      (A6, A7, A9, combos.py), the wait fan (A15, _waits.py and the unique-wait check);
 *   4. the generic loop over the table rows (guard, detector, exclusions), A19 absorptions,
 *      the fallback 屁胡/无番和; the reading ranked as calculator._rank and the best kept;
 *   5. flowers.
 *
 * Group positions inside a reading are kept as bit masks (a fan occurrence's "sources"), which
 * is all the absorptions need; the Python side builds the explained ScoreResult.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_fastfan_tables.h"

#define NK 34
#define MAX_GROUPS 16
#define MAX_SRC 8
#define MAX_KEPT 96
#define MAX_VALUES 128

enum { G_CHOW, G_PUNG, G_KONG, G_PAIR, G_SINGLE, G_KNITTED };
enum { M_NONE = -1, M_CHI = 0, M_PENG = 1, M_MING = 2, M_JIA = 3, M_AN = 4 };
enum { S_REGULAR, S_SEVEN_PAIRS, S_ORPHANS, S_HONORS_KNITTED, S_KNITTED_STRAIGHT };
enum {
    FL_SELF_DRAWN = 1,
    FL_LAST_COPY = 2,
    FL_LAST_TILE = 4,
    FL_KONG_REPLACEMENT = 8,
    FL_ROBBING_KONG = 16,
    FL_TING = 32,
    FL_TIANTING = 64,
    FL_TIANHU = 128,
    FL_DIHU = 256,
    FL_ALL = 511,
};
enum { W_NONE, W_EDGE, W_CLOSED, W_SINGLE };

#define BIT(b) ((uint64_t)1 << (b))
#define GROUP_ALL (BIT(FB_OUTSIDE) | BIT(FB_FIVES) | BIT(FB_EVEN_PUNGS))

static const int ORPHAN_KINDS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
/* combos.py _RELATIONS, in its tie order */
static const int RELATIONS[4] = {FF_PURE_DOUBLE_CHOW, FF_MIXED_DOUBLE_CHOW, FF_SHORT_STRAIGHT,
                                 FF_TWO_TERMINAL_CHOWS};

typedef struct {
    int8_t kind, tile, meld; /* G_*, first kind, M_* (M_NONE: a group of the concealed part) */
} Group;

/* The fans one reading scores, in table order, and its rank (calculator._rank). */
typedef struct {
    int total, n, shape;
    int16_t rows[MAX_KEPT];
    int16_t counts[MAX_KEPT];
} Result;

typedef struct {
    const FFTable *t;
    int counts[NK]; /* every tile: concealed, winning tile, melds */
    int full[NK];   /* concealed part with the winning tile */
    int conc[NK];   /* concealed part without it */
    int kinds[NK], n_kinds;
    int win, tianhu, self_drawn, seat, round, flowers, flags;
    int n_melds, meld_kind[4], meld_first[4];
    uint64_t features; /* hand-level F_* bits */
    int unique_wait;   /* -1: not computed yet */
    int have_best;
    Result best, cur;
} Ctx;

/* ------------------------------------------------------------------------------------------ */
/* Shape checks on counts (_waits.py)                                                          */

/* counts is exactly `sets` sets plus the pair if `pair` (_waits._complete; no copy limit). */
static int complete(int *c, int i, int sets, int pair) {
    while (i < NK && !c[i]) i++;
    if (i == NK) return sets == 0 && !pair;
    int r = 0;
    if (pair && c[i] >= 2) {
        c[i] -= 2;
        r = complete(c, i, sets, 0);
        c[i] += 2;
        if (r) return 1;
    }
    if (sets && c[i] >= 3) {
        c[i] -= 3;
        r = complete(c, i, sets - 1, pair);
        c[i] += 3;
        if (r) return 1;
    }
    if (sets && i < 27 && i % 9 < 7 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        r = complete(c, i, sets - 1, pair);
        c[i]++, c[i + 1]++, c[i + 2]++;
    }
    return r;
}

/* Whether kind t can take part in a completion of c: it is held or has a suited neighbour
 * within two (any other kind would be a lone tile). */
static int near(const int *c, int t) {
    if (c[t]) return 1;
    if (t >= 27) return 0;
    int n = t % 9;
    for (int d = -2; d <= 2; d++)
        if (d && n + d >= 0 && n + d < 9 && c[t + d]) return 1;
    return 0;
}

/* HandFacts.unique_wait: exactly one kind completes the concealed part held before the win
 * (the kernel's regular + seven pairs waits, four copies at most; then, if fewer than two,
 * the kinds already held four times that complete the regular shape, a fifth copy allowed). */
static int unique_wait(Ctx *x) {
    if (x->unique_wait >= 0) return x->unique_wait;
    int c[NK], total = 0, four = 0, n = 0;
    memcpy(c, x->conc, sizeof c);
    for (int k = 0; k < NK; k++) total += c[k], four |= c[k] == 4;
    int sets = 4 - x->n_melds;
    int seven = x->n_melds == 0 && total == 13;
    for (int t = 0; t < NK && n < 2; t++) {
        if (c[t] >= 4 || !near(c, t)) continue;
        c[t]++;
        int ok = complete(c, 0, sets, 1);
        if (!ok && seven) {
            ok = 1;
            for (int k = 0; k < NK; k++)
                if (c[k] & 1) ok = 0;
        }
        c[t]--;
        n += ok;
    }
    if (n < 2 && four) {
        for (int t = 0; t < NK; t++) {
            if (c[t] != 4) continue;
            c[t]++;
            n += complete(c, 0, sets, 1);
            c[t]--;
        }
    }
    x->unique_wait = n == 1;
    return x->unique_wait;
}

/* ------------------------------------------------------------------------------------------ */
/* Hand-level features (facts._tile_features, _suit_features, _win_features)                   */

static uint64_t number_bits(int numbers) {
    static const int allowed[5][2] = {{7, 9}, {4, 6}, {1, 3}, {6, 9}, {1, 4}};
    static const int bits[5] = {FB_UPPER, FB_MIDDLE, FB_LOWER, FB_UPPER_FOUR, FB_LOWER_FOUR};
    uint64_t out = 0;
    if (!numbers) return 0;
    for (int i = 0; i < 5; i++) {
        int mask = 0;
        for (int n = allowed[i][0]; n <= allowed[i][1]; n++) mask |= 1 << n;
        if (!(numbers & ~mask)) out |= BIT(bits[i]);
    }
    return out;
}

static uint64_t hand_features(const Ctx *x, int n_claimed) {
    int suits = 0, honors = 0, numbers = 0, toh = 0, simple = 0, reversible = 1, green = 1;
    int four = 0;
    uint64_t f = 0;
    for (int i = 0; i < x->n_kinds; i++) {
        int k = x->kinds[i];
        if (k >= 27) {
            honors |= k <= 30 ? 1 : 2;
            toh++;
        } else {
            suits |= 1 << (k / 9);
            int n = k % 9;
            numbers |= 1 << (n + 1);
            if (n == 0 || n == 8)
                toh++;
            else
                simple++;
        }
        if (!(FF_REVERSIBLE_KINDS >> k & 1)) reversible = 0;
        if (!(FF_GREEN_KINDS >> k & 1)) green = 0;
        if (x->counts[k] == 4) four = 1;
    }
    if (green) f |= BIT(FB_GREEN);
    if (reversible) f |= BIT(FB_REVERSIBLE);
    if (four) f |= BIT(FB_FOUR);
    int n_suits = (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1);
    if (n_suits == 1) {
        f |= honors ? BIT(FB_HALF_FLUSH) : BIT(FB_FULL_FLUSH);
        if (!honors && !x->n_melds) f |= BIT(FB_ONE_SUIT_CONCEALED);
    } else if (n_suits == 2) {
        f |= BIT(FB_VOIDED);
    } else if (n_suits == 3 && honors == 3) {
        f |= BIT(FB_ALL_TYPES);
    }
    if (!honors) {
        f |= number_bits(numbers);
        if (n_suits > 1) f |= BIT(FB_NO_HONORS);
    }
    if (!simple) {
        if (!suits)
            f |= BIT(FB_ALL_HONORS);
        else if (!honors)
            f |= BIT(FB_ALL_TERMINALS);
        else
            f |= BIT(FB_TERMINALS_AND_HONORS);
    } else if (toh == 0) {
        f |= BIT(FB_SIMPLES);
    }
    /* how the hand was won */
    int flags = x->flags;
    int robbing = (flags & FL_ROBBING_KONG) && !x->self_drawn;
    int last_tile = flags & FL_LAST_TILE;
    if (x->self_drawn) {
        f |= BIT(FB_SELF_DRAWN);
        if (last_tile) f |= BIT(FB_LAST_DRAW);
        if (flags & FL_KONG_REPLACEMENT) f |= BIT(FB_REPLACEMENT);
        if (n_claimed == 0) f |= BIT(FB_FULLY_CONCEALED);
    } else {
        if (last_tile) f |= BIT(FB_LAST_CLAIM);
        if (robbing) f |= BIT(FB_ROBBING);
        if (n_claimed == 0)
            f |= BIT(FB_CONCEALED);
        else if (n_claimed == 4)
            f |= BIT(FB_MELDED);
        if (flags & FL_DIHU) f |= BIT(FB_DIHU);
    }
    if ((flags & FL_LAST_COPY) && !robbing) f |= BIT(FB_LAST_COPY);
    if (x->tianhu) f |= BIT(FB_TIANHU);
    if (flags & FL_TIANTING)
        f |= BIT(FB_TIANTING) | BIT(FB_READY);
    else if (flags & FL_TING)
        f |= BIT(FB_READY);
    return f;
}

/* ------------------------------------------------------------------------------------------ */
/* Set combinations (combos.py)                                                                */

typedef struct {
    int n;
    int16_t fan[8];
    uint32_t src[8];
} Combos;

static void add_combo(Combos *cb, int fan, uint32_t src) {
    if (cb->n < 8) cb->fan[cb->n] = (int16_t)fan, cb->src[cb->n] = src, cb->n++;
}

static int relation(int a, int b) {
    if (a / 9 == b / 9) {
        int d = a > b ? a - b : b - a;
        if (d == 0) return FF_PURE_DOUBLE_CHOW;
        if (d == 3) return FF_SHORT_STRAIGHT;
        if (d == 6) return FF_TWO_TERMINAL_CHOWS;
        return -1;
    }
    return a % 9 == b % 9 ? FF_MIXED_DOUBLE_CHOW : -1;
}

static void sort3(int *v) {
    int t;
    if (v[0] > v[1]) t = v[0], v[0] = v[1], v[1] = t;
    if (v[1] > v[2]) t = v[1], v[1] = v[2], v[2] = t;
    if (v[0] > v[1]) t = v[0], v[0] = v[1], v[1] = t;
}

/* three chows given by their first kinds, sorted */
static int three_chows(int a, int b, int c) {
    int sa = a / 9, sb = b / 9, sc = c / 9;
    if (sa == sb && sb == sc) {
        if (a == b && b == c) return FF_PURE_TRIPLE_CHOW;
        if (b - a == 3 && c - b == 3) return FF_PURE_STRAIGHT;
        if (b - a == c - b && (b - a == 1 || b - a == 2)) return FF_PURE_SHIFTED_CHOWS;
        return -1;
    }
    if (sa != sb && sb != sc && sa != sc) {
        int n[3] = {a % 9, b % 9, c % 9};
        sort3(n);
        if (n[0] == n[1] && n[1] == n[2]) return FF_MIXED_TRIPLE_CHOW;
        if (n[0] == 0 && n[1] == 3 && n[2] == 6) return FF_MIXED_STRAIGHT;
        if (n[1] == n[0] + 1 && n[2] == n[1] + 1) return FF_MIXED_SHIFTED_CHOWS;
    }
    return -1;
}

static int find_root(int *parent, int v) {
    while (parent[v] != v) v = parent[v];
    return v;
}

/* combos._pairing: the best forest of related chow pairs, pairs of one fan disjoint. */
static void pairing(const int *ch, const uint32_t *gm, int n, const int16_t *value, Combos *cb) {
    int ei[6], ej[6], er[6], ne = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int rel = relation(ch[i], ch[j]);
            if (rel >= 0 && value[rel] > 0) ei[ne] = i, ej[ne] = j, er[ne] = rel, ne++;
        }
    int best_key[5] = {0, 0, 0, 0, 0}, best_mask = 0;
    for (int mask = 1; mask < 1 << ne; mask++) {
        int parent[4] = {0, 1, 2, 3}, used[4] = {0, 0, 0, 0}; /* used: bit per relation */
        int ok = 1, key[5] = {0, 0, 0, 0, 0};
        for (int e = 0; e < ne && ok; e++) {
            if (!(mask >> e & 1)) continue;
            int r = 0;
            while (RELATIONS[r] != er[e]) r++;
            if ((used[ei[e]] >> r & 1) || (used[ej[e]] >> r & 1)) {
                ok = 0;
                break;
            }
            used[ei[e]] |= 1 << r, used[ej[e]] |= 1 << r;
            int ri = find_root(parent, ei[e]), rj = find_root(parent, ej[e]);
            if (ri == rj) {
                ok = 0;
                break;
            }
            parent[ri] = rj;
            key[0] += value[er[e]];
            key[1 + r]++;
        }
        if (!ok) continue;
        int greater = 0;
        for (int q = 0; q < 5; q++)
            if (key[q] != best_key[q]) {
                greater = key[q] > best_key[q];
                break;
            }
        if (greater) memcpy(best_key, key, sizeof key), best_mask = mask;
    }
    for (int e = 0; e < ne; e++)
        if (best_mask >> e & 1) add_combo(cb, er[e], gm[ei[e]] | gm[ej[e]]);
}

/* combos.chow_combos: ch = first kinds sorted, gm = their group bits. */
static void chow_combos(const int *ch, const uint32_t *gm, int n, int pair, const int16_t *value,
                        Combos *cb) {
    if (n < 2) return;
    if (n == 4) {
        int a = ch[0], b = ch[1], c = ch[2], d = ch[3];
        uint32_t all = gm[0] | gm[1] | gm[2] | gm[3];
        if (value[FF_PURE_TERMINAL_CHOWS] && a % 9 == 0 && a == b && c == d && c == a + 6 &&
            pair == a + 4) {
            add_combo(cb, FF_PURE_TERMINAL_CHOWS, all);
            return;
        }
        if (value[FF_THREE_SUITED_TERMINAL_CHOWS] && pair >= 0 && pair < 27 && pair % 9 == 4) {
            int suits = 0, n_suits = 0;
            for (int q = 0; q < 4; q++) suits |= 1 << (ch[q] / 9);
            for (int s = 0; s < 3; s++) n_suits += suits >> s & 1;
            int ok = n_suits == 2 && !(suits >> (pair / 9) & 1);
            for (int s = 0; s < 3 && ok; s++) {
                if (!(suits >> s & 1)) continue;
                int lo = 0, hi = 0;
                for (int q = 0; q < 4; q++) lo += ch[q] == s * 9, hi += ch[q] == s * 9 + 6;
                ok = lo == 1 && hi == 1;
            }
            if (ok) {
                add_combo(cb, FF_THREE_SUITED_TERMINAL_CHOWS, all);
                return;
            }
        }
        if (value[FF_QUADRUPLE_CHOW] && a == b && b == c && c == d) {
            add_combo(cb, FF_QUADRUPLE_CHOW, all);
            return;
        }
        if (value[FF_FOUR_PURE_SHIFTED_CHOWS] && a / 9 == d / 9 && b - a == c - b &&
            c - b == d - c && (b - a == 1 || b - a == 2)) {
            add_combo(cb, FF_FOUR_PURE_SHIFTED_CHOWS, all);
            return;
        }
        int have = 0, best_key[3] = {0, 0, 0}, best_fan = -1, best_rel = -1;
        uint32_t best_trio = 0, best_pair = 0;
        for (int rest = 3; rest >= 0; rest--) {
            int trio[3], m = 0;
            for (int k = 0; k < 4; k++)
                if (k != rest) trio[m++] = k;
            int fan = three_chows(ch[trio[0]], ch[trio[1]], ch[trio[2]]);
            if (fan < 0 || !value[fan]) continue;
            int extra = 0, extra_rank = 0, rel_fan = -1;
            uint32_t rel_src = 0;
            for (int rank = 0; rank < 4; rank++) {
                int partner = -1;
                for (int q = 0; q < 3; q++)
                    if (relation(ch[trio[q]], ch[rest]) == RELATIONS[rank]) {
                        partner = trio[q];
                        break;
                    }
                if (partner >= 0 && value[RELATIONS[rank]] > extra) {
                    extra = value[RELATIONS[rank]];
                    extra_rank = -rank;
                    rel_fan = RELATIONS[rank];
                    rel_src = gm[partner] | gm[rest];
                }
            }
            int key[3] = {value[fan] + extra, value[fan], extra_rank};
            int greater = !have;
            for (int q = 0; q < 3 && have; q++)
                if (key[q] != best_key[q]) {
                    greater = key[q] > best_key[q];
                    break;
                }
            if (greater) {
                have = 1;
                memcpy(best_key, key, sizeof key);
                best_fan = fan, best_rel = rel_fan, best_pair = rel_src;
                best_trio = gm[trio[0]] | gm[trio[1]] | gm[trio[2]];
            }
        }
        if (have) {
            add_combo(cb, best_fan, best_trio);
            if (best_rel >= 0) add_combo(cb, best_rel, best_pair);
            return;
        }
        pairing(ch, gm, n, value, cb);
        return;
    }
    if (n == 3) {
        int fan = three_chows(ch[0], ch[1], ch[2]);
        if (fan >= 0 && value[fan]) {
            add_combo(cb, fan, gm[0] | gm[1] | gm[2]);
            return;
        }
    }
    pairing(ch, gm, n, value, cb);
}

static int three_pungs(int a, int b, int c) {
    if (a >= 27) {
        if (c <= 30) return FF_BIG_THREE_WINDS;
        if (a >= 31) return FF_BIG_THREE_DRAGONS;
        return -1;
    }
    if (c >= 27) return -1;
    int sa = a / 9, sb = b / 9, sc = c / 9;
    if (sa == sb && sb == sc) return b == a + 1 && c == b + 1 ? FF_PURE_SHIFTED_PUNGS : -1;
    if (sa != sb && sb != sc && sa != sc) {
        int n[3] = {a % 9, b % 9, c % 9};
        sort3(n);
        if (n[0] == n[1] && n[1] == n[2]) return FF_TRIPLE_PUNG;
        if (n[1] == n[0] + 1 && n[2] == n[1] + 1) return FF_MIXED_SHIFTED_PUNGS;
    }
    return -1;
}

static int two_pungs(int a, int b) {
    if (a >= 31 && b >= 31) return FF_TWO_DRAGON_PUNGS;
    if (a < 27 && b < 27 && a / 9 != b / 9 && a % 9 == b % 9) return FF_DOUBLE_PUNG;
    return -1;
}

/* combos.pung_combos with Facts._pung_combinations' pair group for the little_ fans. */
static void pung_combos(const int *pg, const uint32_t *gm, int n, int pair, uint32_t pair_gm,
                        const int16_t *value, Combos *cb) {
    if (n < 2) return;
    if (n == 4) {
        int a = pg[0], b = pg[1], c = pg[2], d = pg[3];
        uint32_t all = gm[0] | gm[1] | gm[2] | gm[3];
        if (a == 27 && b == 28 && c == 29 && d == 30 && value[FF_BIG_FOUR_WINDS]) {
            add_combo(cb, FF_BIG_FOUR_WINDS, all);
            return;
        }
        if (d < 27 && a / 9 == d / 9 && b == a + 1 && c == b + 1 && d == c + 1 &&
            value[FF_FOUR_PURE_SHIFTED_PUNGS]) {
            add_combo(cb, FF_FOUR_PURE_SHIFTED_PUNGS, all);
            return;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            for (int k = j + 1; k < n; k++) {
                int fan = three_pungs(pg[i], pg[j], pg[k]);
                if (fan < 0 || !value[fan]) continue;
                uint32_t trio = gm[i] | gm[j] | gm[k];
                if (fan == FF_BIG_THREE_WINDS && pair >= 27 && pair <= 30 &&
                    value[FF_LITTLE_FOUR_WINDS])
                    add_combo(cb, FF_LITTLE_FOUR_WINDS, trio | pair_gm);
                else
                    add_combo(cb, fan, trio);
                for (int rest = 0; rest < n; rest++) {
                    if (rest == i || rest == j || rest == k) continue;
                    int t3[3] = {i, j, k};
                    for (int q = 0; q < 3; q++) {
                        int two = two_pungs(pg[t3[q]], pg[rest]);
                        if (two >= 0 && value[two]) {
                            add_combo(cb, two, gm[t3[q]] | gm[rest]);
                            break;
                        }
                    }
                }
                return;
            }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int two = two_pungs(pg[i], pg[j]);
            if (two < 0 || !value[two]) continue;
            if (two == FF_TWO_DRAGON_PUNGS && pair >= 31 && value[FF_LITTLE_THREE_DRAGONS])
                add_combo(cb, FF_LITTLE_THREE_DRAGONS, gm[i] | gm[j] | pair_gm);
            else
                add_combo(cb, two, gm[i] | gm[j]);
        }
}

/* ------------------------------------------------------------------------------------------ */
/* One reading (facts.Facts, the detectors of fans.py, calculator._score_reading)              */

typedef struct {
    const Group *g;
    int ng, shape;
    uint64_t f0, f1; /* feature bits 0..63 and 64..127 */
    int ch[4], n_ch, pg[4], n_pg, cc[4], n_cc;
    uint32_t ch_gm[4], pg_gm[4], kongs, concealed_sets, all;
    int n_kongs, n_concealed_pungs, n_exposed_kongs, n_concealed_kongs, n_knitted;
    int pair, wait;
    uint32_t pair_gm;
    Combos cb;
} Facts;

static int sort_by_kind(int *v, uint32_t *m, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (v[j - 1] > v[j] || (v[j - 1] == v[j] && m[j - 1] > m[j])); j--) {
            int tv = v[j];
            uint32_t tm = m[j];
            v[j] = v[j - 1], m[j] = m[j - 1], v[j - 1] = tv, m[j - 1] = tm;
        }
    return n;
}

static uint64_t same_bits(int t) {
    if (t >= 27) return BIT(FB_OUTSIDE);
    int n = t % 9;
    return (n == 0 || n == 8 ? BIT(FB_OUTSIDE) : 0) | (n == 4 ? BIT(FB_FIVES) : 0) |
           (n % 2 == 1 ? BIT(FB_EVEN_PUNGS) : 0);
}

static uint64_t chow_bits(int t) {
    int n = t % 9;
    return (n == 0 || n == 6 ? BIT(FB_OUTSIDE) : 0) | (n >= 2 && n <= 4 ? BIT(FB_FIVES) : 0);
}

static int is_yaojiu(int t) { return (t >= 27 && t <= 30) || (t < 27 && (t % 9 == 0 || t % 9 == 8)); }

/* 组合龙: the wait of the set and pair left once the trios are out (Facts._knitted_unique). */
static int knitted_unique(const Facts *f, int win) {
    int c[NK], n_sets = 0, n = 0;
    memset(c, 0, sizeof c);
    for (int gi = 0; gi < f->ng; gi++) {
        const Group *g = &f->g[gi];
        if (g->kind == G_KNITTED || g->meld != M_NONE) continue;
        if (g->kind == G_CHOW)
            c[g->tile]++, c[g->tile + 1]++, c[g->tile + 2]++;
        else
            c[g->tile] += g->kind == G_PAIR ? 2 : 3;
        if (g->kind != G_PAIR) n_sets++;
    }
    c[win]--;
    for (int t = 0; t < NK && n < 2; t++) {
        if (!near(c, t)) continue;
        c[t]++;
        n += complete(c, 0, n_sets, 1);
        c[t]--;
    }
    return n == 1;
}

static int reading_wait(Ctx *x, const Facts *f) {
    int win = x->win, found = W_NONE;
    for (int q = 0; q < f->n_cc; q++) {
        int c = f->cc[q];
        if (c / 9 == win / 9 && (win == c || win == c + 2)) {
            found = W_EDGE;
            break;
        }
    }
    if (!found)
        for (int q = 0; q < f->n_cc; q++)
            if (f->cc[q] + 1 == win) {
                found = W_CLOSED;
                break;
            }
    if (!found && f->pair == win) found = W_SINGLE;
    if (!found) return W_NONE;
    if (f->shape == S_KNITTED_STRAIGHT) return knitted_unique(f, win) ? found : W_NONE;
    return unique_wait(x) ? found : W_NONE;
}

static void facts(Ctx *x, Facts *f, const Group *g, int ng, int shape) {
    static const uint64_t shape_bits[5] = {
        BIT(FB_REGULAR) | BIT(FB_SETS),
        BIT(FB_SEVEN_PAIRS),
        BIT(FB_ORPHANS),
        BIT(FB_HONORS_KNITTED) | BIT(FB_KNITTED),
        BIT(FB_KNITTED_STRAIGHT) | BIT(FB_KNITTED) | BIT(FB_SETS),
    };
    const FFTable *t = x->t;
    memset(f, 0, sizeof *f);
    f->g = g, f->ng = ng, f->shape = shape;
    f->all = ng >= 32 ? 0xffffffffu : ((uint32_t)1 << ng) - 1;
    f->pair = -1;
    uint64_t features = x->features | shape_bits[shape];
    int regular = shape == S_REGULAR || shape == S_KNITTED_STRAIGHT;
    uint64_t every = shape == S_REGULAR ? GROUP_ALL : 0, pung_bits = 0, cp_kinds = 0;
    for (int gi = 0; gi < ng; gi++) {
        int k = g[gi].kind, tile = g[gi].tile, meld = g[gi].meld;
        uint32_t bit = (uint32_t)1 << gi;
        if (k == G_CHOW) {
            f->ch[f->n_ch] = tile, f->ch_gm[f->n_ch++] = bit;
            if (meld == M_NONE) f->cc[f->n_cc++] = tile;
            every &= chow_bits(tile);
        } else if (k == G_PUNG || k == G_KONG) {
            f->pg[f->n_pg] = tile, f->pg_gm[f->n_pg++] = bit;
            pung_bits |= (tile >= 31 ? BIT(FB_DRAGON_PUNG) : 0) |
                         (is_yaojiu(tile) ? BIT(FB_YAOJIU_PUNG) : 0);
            every &= same_bits(tile);
            if (meld == M_NONE || meld == M_AN) f->concealed_sets |= bit;
            if (k == G_KONG) {
                f->kongs |= bit, f->n_kongs++;
                if (meld == M_AN)
                    f->n_concealed_kongs++;
                else
                    f->n_exposed_kongs++;
            } else if (meld == M_NONE) {
                f->n_concealed_pungs++;
                cp_kinds |= BIT(tile);
            }
        } else if (k == G_PAIR) {
            if (regular) {
                f->pair = tile, f->pair_gm = bit;
                every &= same_bits(tile);
            }
        } else if (k == G_KNITTED) {
            f->n_knitted++;
        }
    }
    int win = x->win;
    if (win >= 0 && !x->self_drawn && (cp_kinds >> win & 1)) {
        int in_chow = 0;
        for (int q = 0; q < f->n_cc; q++)
            if (f->cc[q] <= win && win <= f->cc[q] + 2 && win / 9 == f->cc[q] / 9) in_chow = 1;
        if (!in_chow) f->n_concealed_pungs--;
    }
    f->n_concealed_pungs += f->n_concealed_kongs;
    features |= every | pung_bits;
    /* Facts._set_features */
    if (f->n_kongs) features |= BIT(FB_KONG);
    int ncp = f->n_concealed_pungs;
    if (ncp == 2)
        features |= BIT(FB_TWO_CONCEALED_PUNGS);
    else if (ncp == 3)
        features |= BIT(FB_THREE_CONCEALED_PUNGS);
    else if (ncp >= 4)
        features |= BIT(FB_FOUR_CONCEALED_PUNGS);
    for (int q = 0; q < f->n_pg; q++) {
        if (f->pg[q] == x->round) features |= BIT(FB_ROUND_PUNG);
        if (f->pg[q] == x->seat) features |= BIT(FB_SEAT_PUNG);
    }
    if (f->n_pg == 4 && shape == S_REGULAR) features |= BIT(FB_FOUR_PUNGS);
    if (regular && f->n_ch + f->n_knitted == 4 && f->pair >= 0 && f->pair < 27)
        features |= BIT(FB_ALL_CHOWS);
    /* A6, A7, A9 */
    if (f->n_ch >= 2) {
        int ch[4];
        uint32_t gm[4];
        memcpy(ch, f->ch, sizeof ch), memcpy(gm, f->ch_gm, sizeof gm);
        sort_by_kind(ch, gm, f->n_ch);
        chow_combos(ch, gm, f->n_ch, f->pair, t->value_of, &f->cb);
    }
    if (f->n_pg >= 2) {
        int pg[4];
        uint32_t gm[4];
        memcpy(pg, f->pg, sizeof pg), memcpy(gm, f->pg_gm, sizeof gm);
        sort_by_kind(pg, gm, f->n_pg);
        pung_combos(pg, gm, f->n_pg, f->pair, f->pair_gm, t->value_of, &f->cb);
    }
    uint64_t f1 = 0;
    for (int q = 0; q < f->cb.n; q++) {
        int b = FF_COMBO_BIT[f->cb.fan[q]];
        if (b < 64)
            features |= BIT(b);
        else
            f1 |= BIT(b - 64);
    }
    /* A15 */
    f->wait = W_NONE;
    if (t->wait_fans && !x->tianhu && win >= 0 && regular) {
        f->wait = reading_wait(x, f);
        if (f->wait == W_EDGE) features |= BIT(FB_EDGE);
        if (f->wait == W_CLOSED) features |= BIT(FB_CLOSED);
        if (f->wait == W_SINGLE) features |= BIT(FB_SINGLE);
    }
    f->f0 = features, f->f1 = f1;
}

/* The detector of one fan (fans.DETECTORS): the number of occurrences, their group bits in
 * src.  Called only when the fan's guard holds, as in the Python loop. */
static int detect(const Ctx *x, const Facts *f, int fan, uint32_t *src) {
    int n = 0;
    switch (fan) {
    case FF_NINE_GATES: {
        int base = x->kinds[0] / 9 * 9;
        for (int r = 0; r < 9; r++) {
            if (x->win >= 0 && r != x->win - base) continue;
            int ok = 1;
            for (int q = 0; q < 9 && ok; q++) {
                int held = x->counts[base + q] - (q == r);
                ok = held == (q == 0 || q == 8 ? 3 : 1);
            }
            if (ok) {
                src[0] = f->all;
                return 1;
            }
        }
        return 0;
    }
    case FF_FOUR_KONGS:
    case FF_THREE_KONGS:
        if (f->n_kongs != (fan == FF_FOUR_KONGS ? 4 : 3)) return 0;
        src[0] = f->kongs;
        return 1;
    case FF_TWO_CONCEALED_KONGS:
    case FF_TWO_MELDED_KONGS:
        if (f->n_kongs != 2 || f->n_exposed_kongs != (fan == FF_TWO_MELDED_KONGS ? 2 : 0)) return 0;
        src[0] = f->kongs;
        return 1;
    case FF_CONCEALED_KONG:
    case FF_MELDED_KONG: {
        int concealed = fan == FF_CONCEALED_KONG;
        int mine = concealed ? f->n_concealed_kongs : f->n_exposed_kongs;
        if (mine != 1 || (f->n_kongs != 1 && f->n_kongs != 2)) return 0;
        for (int gi = 0; gi < f->ng; gi++)
            if ((f->kongs >> gi & 1) && (f->g[gi].meld == M_AN) == concealed) {
                src[0] = (uint32_t)1 << gi;
                return 1;
            }
        return 0;
    }
    case FF_FOUR_CONCEALED_PUNGS:
    case FF_THREE_CONCEALED_PUNGS:
    case FF_TWO_CONCEALED_PUNGS: {
        int want = fan == FF_FOUR_CONCEALED_PUNGS ? 4 : fan == FF_THREE_CONCEALED_PUNGS ? 3 : 2;
        if (f->n_concealed_pungs != want) return 0;
        src[0] = f->concealed_sets;
        return 1;
    }
    case FF_SEVEN_SHIFTED_PAIRS: {
        if (f->shape != S_SEVEN_PAIRS || x->n_kinds != 7) return 0;
        int lo = x->kinds[0], hi = x->kinds[6];
        if (hi >= 27 || lo / 9 != hi / 9 || hi - lo != 6) return 0;
        for (int q = 0; q < 7; q++)
            if (x->counts[x->kinds[q]] != 2) return 0;
        src[0] = f->all;
        return 1;
    }
    case FF_THIRTEEN_ORPHANS:
        if (f->shape != S_ORPHANS) return 0;
        src[0] = f->all;
        return 1;
    case FF_LESSER_HONORS_AND_KNITTED_TILES:
        if (f->shape != S_HONORS_KNITTED) return 0;
        src[0] = f->all;
        return 1;
    case FF_SEVEN_PAIRS:
        if (f->shape != S_SEVEN_PAIRS) return 0;
        src[0] = f->all;
        return 1;
    case FF_GREATER_HONORS_AND_KNITTED_TILES:
        if (f->shape != S_HONORS_KNITTED) return 0;
        for (int k = 27; k < NK; k++)
            if (!x->counts[k]) return 0;
        src[0] = f->all;
        return 1;
    case FF_KNITTED_STRAIGHT: {
        uint32_t m = 0;
        if (f->shape == S_KNITTED_STRAIGHT) {
            for (int gi = 0; gi < f->ng; gi++)
                if (f->g[gi].kind == G_KNITTED) m |= (uint32_t)1 << gi;
        } else if (f->shape == S_HONORS_KNITTED) {
            int suited = 0;
            for (int q = 0; q < x->n_kinds; q++) suited += x->kinds[q] < 27;
            if (suited != 9) return 0;
            for (int gi = 0; gi < f->ng; gi++)
                if (f->g[gi].tile < 27) m |= (uint32_t)1 << gi;
        } else {
            return 0;
        }
        src[0] = m;
        return 1;
    }
    case FF_ALL_EVEN_PUNGS:
    case FF_ALL_FIVES:
    case FF_OUTSIDE_HAND:
    case FF_ALL_CHOWS:
        src[0] = f->all;
        return 1;
    case FF_ALL_PUNGS: {
        uint32_t m = 0;
        for (int q = 0; q < f->n_pg; q++) m |= f->pg_gm[q];
        src[0] = m;
        return 1;
    }
    case FF_DRAGON_PUNG:
        for (int q = 0; q < f->n_pg && n < MAX_SRC; q++)
            if (f->pg[q] >= 31) src[n++] = f->pg_gm[q];
        return n;
    case FF_PUNG_OF_TERMINALS_OR_HONORS:
        for (int q = 0; q < f->n_pg && n < MAX_SRC; q++)
            if (is_yaojiu(f->pg[q])) src[n++] = f->pg_gm[q];
        return n;
    case FF_PREVALENT_WIND:
    case FF_SEAT_WIND: {
        int wind = fan == FF_PREVALENT_WIND ? x->round : x->seat;
        for (int q = 0; q < f->n_pg && n < MAX_SRC; q++)
            if (f->pg[q] == wind) src[n++] = f->pg_gm[q];
        return n;
    }
    case FF_TILE_HOG:
        for (int q = 0; q < x->n_kinds && n < MAX_SRC; q++) {
            int k = x->kinds[q];
            if (x->counts[k] != 4) continue;
            uint32_t m = 0;
            int is_kong = 0;
            for (int gi = 0; gi < f->ng; gi++) {
                const Group *g = &f->g[gi];
                int in = g->kind == G_CHOW    ? g->tile <= k && k <= g->tile + 2
                         : g->kind == G_KNITTED ? k == g->tile || k == g->tile + 3 || k == g->tile + 6
                                                : k == g->tile;
                if (in) m |= (uint32_t)1 << gi;
                if (g->kind == G_KONG && g->tile == k) is_kong = 1;
            }
            if (!is_kong) src[n++] = m;
        }
        return n;
    case FF_EDGE_WAIT:
    case FF_CLOSED_WAIT:
    case FF_SINGLE_WAIT: {
        int want = fan == FF_EDGE_WAIT ? W_EDGE : fan == FF_CLOSED_WAIT ? W_CLOSED : W_SINGLE;
        if (f->wait != want) return 0;
        src[0] = 0; /* the group is for the explanation only */
        return 1;
    }
    case FF_CHICKEN_HAND:
    case FF_FLOWER_TILES:
        return 0; /* the fallback and the bonus are not scored per reading */
    default:
        break;
    }
    if (FF_COMBO_BIT[fan] >= 0) {
        for (int q = 0; q < f->cb.n && n < MAX_SRC; q++)
            if (f->cb.fan[q] == fan) src[n++] = f->cb.src[q];
        return n;
    }
    src[0] = 0; /* a fan its guard decides */
    return 1;
}

typedef struct {
    int row, n;
    uint32_t src[MAX_SRC];
} Kept;

/* calculator._score_reading: steps A-D for one reading, into x->cur. */
static void score_reading(Ctx *x, const Facts *f) {
    const FFTable *t = x->t;
    Kept kept[MAX_KEPT];
    int nk = 0;
    uint64_t removed0 = 0, removed1 = 0;
    for (int i = 0; i < t->n_rows; i++) {
        const FFRow *row = &t->rows[i];
        if (row->flags & (FR_BONUS | FR_FALLBACK)) continue;
        if (i < 64 ? removed0 >> i & 1 : removed1 >> (i - 64) & 1) continue;
        if ((row->guard[0] & ~f->f0) || (row->guard[1] & ~f->f1)) continue;
        Kept *k = &kept[nk];
        k->n = detect(x, f, row->fan, k->src);
        if (!k->n) continue;
        k->row = i;
        uint64_t m0 = row->exclude[0], m1 = row->exclude[1];
        if (m0 | m1) {
            removed0 |= m0, removed1 |= m1;
            int w = 0;
            for (int q = 0; q < nk; q++) {
                int r = kept[q].row;
                if (r < 64 ? m0 >> r & 1 : m1 >> (r - 64) & 1) continue;
                if (w != q) kept[w] = kept[q];
                w++;
            }
            if (w != nk) kept[w] = kept[nk], nk = w;
        }
        nk++;
    }
    /* A19: absorbed occurrences */
    for (int p = 0; p < nk; p++) {
        const FFRow *row = &t->rows[kept[p].row];
        if (!(row->absorb[0] | row->absorb[1])) continue;
        for (int q = 0; q < nk; q++) {
            int j = kept[q].row;
            if (!(j < 64 ? row->absorb[0] >> j & 1 : row->absorb[1] >> (j - 64) & 1)) continue;
            int budget = row->absorb_limit, left = 0;
            for (int s = 0; s < kept[q].n; s++) {
                uint32_t theirs = kept[q].src[s];
                int inside = 0;
                if (budget != 0)
                    for (int m = 0; m < kept[p].n; m++)
                        if (!(theirs & ~kept[p].src[m])) inside = 1;
                if (inside) {
                    if (budget > 0) budget--;
                } else {
                    kept[q].src[left++] = theirs;
                }
            }
            kept[q].n = left;
        }
    }
    Result *out = &x->cur;
    out->n = 0, out->total = 0, out->shape = f->shape;
    for (int q = 0; q < nk; q++) {
        if (!kept[q].n) continue;
        const FFRow *row = &t->rows[kept[q].row];
        int count = row->flags & FR_PER ? kept[q].n : 1;
        out->rows[out->n] = (int16_t)kept[q].row, out->counts[out->n++] = (int16_t)count;
        out->total += row->value * count;
    }
    if (!out->n) {
        for (int i = 0; i < t->n_rows; i++)
            if (t->rows[i].flags & FR_FALLBACK) {
                out->rows[0] = (int16_t)i, out->counts[0] = 1, out->n = 1;
                out->total = t->rows[i].value;
                break;
            }
    }
}

static int cmp_desc(const void *a, const void *b) {
    return *(const int *)b - *(const int *)a;
}

/* Python's tuple comparison of two int sequences. */
static int cmp_seq(const int *a, int na, const int *b, int nb) {
    for (int i = 0; i < na && i < nb; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

static int rank_lists(const FFTable *t, const Result *r, int *values, int *order) {
    int n = 0;
    for (int q = 0; q < r->n; q++)
        for (int c = 0; c < r->counts[q] && n < MAX_VALUES; c++)
            values[n] = t->rows[r->rows[q]].value, order[n++] = -r->rows[q];
    qsort(values, (size_t)n, sizeof *values, cmp_desc);
    return n;
}

/* calculator._rank: total, values in decreasing order, rows in table order, not seven pairs. */
static int better(const FFTable *t, const Result *a, const Result *b) {
    if (a->total != b->total) return a->total > b->total;
    int va[MAX_VALUES], oa[MAX_VALUES], vb[MAX_VALUES], ob[MAX_VALUES];
    int na = rank_lists(t, a, va, oa), nb = rank_lists(t, b, vb, ob);
    int c = cmp_seq(va, na, vb, nb);
    if (c) return c > 0;
    c = cmp_seq(oa, na, ob, nb);
    if (c) return c > 0;
    return (a->shape != S_SEVEN_PAIRS) > (b->shape != S_SEVEN_PAIRS);
}

static void reading(Ctx *x, const Group *g, int ng, int shape) {
    Facts f;
    facts(x, &f, g, ng, shape);
    score_reading(x, &f);
    if (!x->have_best || better(x->t, &x->cur, &x->best)) {
        x->best = x->cur;
        x->have_best = 1;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Readings (analysis.readings for hands without wilds)                                        */

typedef struct {
    Ctx *x;
    Group g[MAX_GROUPS];
    int ng, n_fixed, shape; /* n_fixed: groups placed before the search (trios, melds) */
} Search;

static void push(Search *s, int kind, int tile, int meld) {
    s->g[s->ng].kind = (int8_t)kind, s->g[s->ng].tile = (int8_t)tile, s->g[s->ng].meld = (int8_t)meld;
    s->ng++;
}

/* Every split of c (from kind i on) into `sets` sets and the pair if `pair`, each once: at the
 * lowest kind held, the pair or not, a pung or not, and the rest as chows starting there. */
static void split(Search *s, int *c, int i, int sets, int pair) {
    while (i < NK && !c[i]) i++;
    if (i == NK) {
        if (!sets && !pair) reading(s->x, s->g, s->ng, s->shape);
        return;
    }
    int n = c[i];
    for (int p = 0; p <= pair; p++)
        for (int u = 0; u <= 1; u++) {
            int k = n - 2 * p - 3 * u;
            if (k < 0 || u + k > sets) continue;
            if (k && (i >= 27 || i % 9 > 6 || c[i + 1] < k || c[i + 2] < k)) continue;
            int ng = s->ng;
            c[i] = 0;
            if (k) c[i + 1] -= k, c[i + 2] -= k;
            if (u) push(s, G_PUNG, i, M_NONE);
            for (int q = 0; q < k; q++) push(s, G_CHOW, i, M_NONE);
            if (p) push(s, G_PAIR, i, M_NONE);
            split(s, c, i + 1, sets - u - k, pair - p);
            s->ng = ng;
            c[i] = n;
            if (k) c[i + 1] += k, c[i + 2] += k;
        }
}

static void push_melds(Search *s) {
    for (int m = 0; m < s->x->n_melds; m++) {
        int kind = s->x->meld_kind[m];
        push(s, kind == M_CHI ? G_CHOW : kind == M_PENG ? G_PUNG : G_KONG, s->x->meld_first[m], kind);
    }
}

static void all_readings(Ctx *x) {
    int c[NK];
    Search s;
    s.x = x;
    int shapes = x->t->shapes, n_melds = x->n_melds;
    memcpy(c, x->full, sizeof c);
    /* regular */
    s.ng = 0, s.shape = S_REGULAR;
    push_melds(&s);
    split(&s, c, 0, 4 - n_melds, 1);
    if (n_melds == 0 && (shapes >> S_SEVEN_PAIRS & 1)) {
        int ok = 1;
        for (int k = 0; k < NK; k++) ok &= c[k] == 0 || c[k] == 2 || c[k] == 4;
        if (ok) {
            s.ng = 0, s.shape = S_SEVEN_PAIRS;
            for (int k = 0; k < NK; k++)
                for (int q = 0; q < c[k] / 2; q++) push(&s, G_PAIR, k, M_NONE);
            reading(x, s.g, s.ng, S_SEVEN_PAIRS);
        }
    }
    if (n_melds == 0 && (shapes >> S_ORPHANS & 1)) {
        int ok = 1, paired = -1;
        uint64_t orphans = 0;
        for (int q = 0; q < 13; q++) orphans |= BIT(ORPHAN_KINDS[q]);
        for (int k = 0; k < NK && ok; k++) {
            if (orphans >> k & 1) {
                ok = c[k] == 1 || c[k] == 2;
                if (c[k] == 2) paired = k;
            } else {
                ok = c[k] == 0;
            }
        }
        if (ok && paired >= 0) {
            s.ng = 0, s.shape = S_ORPHANS;
            for (int q = 0; q < 13; q++)
                if (ORPHAN_KINDS[q] != paired) push(&s, G_SINGLE, ORPHAN_KINDS[q], M_NONE);
            push(&s, G_PAIR, paired, M_NONE);
            reading(x, s.g, s.ng, S_ORPHANS);
        }
    }
    if (n_melds == 0 && (shapes >> S_HONORS_KNITTED & 1)) {
        int ok = 1;
        uint64_t held = 0;
        for (int k = 0; k < NK && ok; k++) {
            ok = c[k] <= 1;
            if (c[k]) held |= BIT(k);
        }
        int fits = 0;
        for (int p = 0; p < 6 && ok && !fits; p++) {
            uint64_t pool = 0;
            for (int k = 27; k < NK; k++) pool |= BIT(k);
            for (int suit = 0; suit < 3; suit++)
                for (int j = 0; j < 3; j++) pool |= BIT(suit * 9 + PERMS[p][suit] + 3 * j);
            fits = !(held & ~pool);
        }
        if (ok && fits) {
            s.ng = 0, s.shape = S_HONORS_KNITTED;
            for (int k = 0; k < NK; k++)
                if (c[k]) push(&s, G_SINGLE, k, M_NONE);
            reading(x, s.g, s.ng, S_HONORS_KNITTED);
        }
    }
    if (n_melds <= 1 && (shapes >> S_KNITTED_STRAIGHT & 1)) {
        for (int p = 0; p < 6; p++) {
            int ok = 1;
            for (int suit = 0; suit < 3 && ok; suit++)
                for (int j = 0; j < 3 && ok; j++) ok = c[suit * 9 + PERMS[p][suit] + 3 * j] > 0;
            if (!ok) continue;
            s.ng = 0, s.shape = S_KNITTED_STRAIGHT;
            for (int suit = 0; suit < 3; suit++) {
                int first = suit * 9 + PERMS[p][suit];
                push(&s, G_KNITTED, first, M_NONE);
                for (int j = 0; j < 3; j++) c[first + 3 * j]--;
            }
            push_melds(&s);
            split(&s, c, 0, 1 - n_melds, 1);
            for (int suit = 0; suit < 3; suit++) {
                int first = suit * 9 + PERMS[p][suit];
                for (int j = 0; j < 3; j++) c[first + 3 * j]++;
            }
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The Python function                                                                         */

static int read_int(PyObject *obj, const char *what, long lo, long hi, long *out) {
    long v;
    if (obj == Py_None && lo == -1) {
        *out = -1;
        return 0;
    }
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "fan_counts(): %s must be an int, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "fan_counts(): %s must be in %ld..%ld, not %ld", what, lo,
                     hi, v);
        return -1;
    }
    *out = v;
    return 0;
}

/* The concealed tiles: a sequence of at most 14 kinds, or 34 counts as bytes. */
static int read_concealed(PyObject *obj, int *conc) {
    memset(conc, 0, NK * sizeof *conc);
    if (PyBytes_Check(obj)) {
        if (PyBytes_GET_SIZE(obj) != NK) {
            PyErr_Format(PyExc_ValueError, "fan_counts(): concealed counts must be %d bytes, not %zd",
                         NK, PyBytes_GET_SIZE(obj));
            return -1;
        }
        const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(obj);
        for (int k = 0; k < NK; k++) {
            if (b[k] > 4) {
                PyErr_Format(PyExc_ValueError, "fan_counts(): concealed count of kind %d is %d",
                             k, b[k]);
                return -1;
            }
            conc[k] = b[k];
        }
        return 0;
    }
    PyObject *seq = PySequence_Fast(obj, "fan_counts(): concealed must be a sequence of kinds");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 14) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "fan_counts(): %zd concealed tiles (at most 14)", n);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        long k;
        if (read_int(items[i], "a concealed tile", 0, NK - 1, &k) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        conc[k]++;
    }
    Py_DECREF(seq);
    return 0;
}

static int read_melds(PyObject *obj, Ctx *x) {
    PyObject *seq = PySequence_Fast(obj, "fan_counts(): melds must be a sequence of meld codes");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 4) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "fan_counts(): %zd melds (at most 4)", n);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    x->n_melds = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        long code;
        if (read_int(items[i], "a meld code", 0, 4 * 64 + NK - 1, &code) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        int kind = (int)(code >> 6), first = (int)(code & 63);
        if (first >= NK || (kind == M_CHI && (first >= 27 || first % 9 > 6))) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "fan_counts(): bad meld code %ld", code);
            return -1;
        }
        x->meld_kind[i] = kind, x->meld_first[i] = first;
    }
    Py_DECREF(seq);
    return 0;
}

PyDoc_STRVAR(fan_counts_doc,
             "fan_counts(concealed, melds, winning, flags, seat_wind, round_wind, flowers, table, "
             "rows=None, /)\n"
             "    -> tuple[int, tuple[tuple[object, int], ...]] | None\n\n"
             "The total and the fans (row, count) of the best reading of a hand without wilds, as\n"
             "erren.families.guobiao.scoring.score computes them; None if the hand does not win.  concealed: the\n"
             "concealed kinds without the winning tile (or 34 counts as bytes); melds: codes\n"
             "kind << 6 | first kind (0 chi, 1 peng, 2 明杠, 3 加杠, 4 暗杠); winning: a kind or\n"
             "-1/None (天胡); flags: FL_* bits; seat_wind: 27..30 or -1/None (the default);\n"
             "round_wind: 27..30; table: 0 gb, 1 2p; rows: a tuple of the table's row objects\n"
             "to return in place of the row positions.");

static PyObject *fan_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs < 8 || nargs > 9) {
        PyErr_Format(PyExc_TypeError, "fan_counts() takes 8 or 9 positional arguments (%zd given)",
                     nargs);
        return NULL;
    }
    Ctx x;
    long win, flags, seat, round, flowers, table;
    if (read_int(args[2], "winning", -1, NK - 1, &win) < 0 ||
        read_int(args[3], "flags", 0, FL_ALL, &flags) < 0 ||
        read_int(args[4], "seat_wind", -1, 30, &seat) < 0 ||
        read_int(args[5], "round_wind", 27, 30, &round) < 0 ||
        read_int(args[6], "flowers", 0, 255, &flowers) < 0 ||
        read_int(args[7], "table", 0, 1, &table) < 0)
        return NULL;
    if (seat >= 0 && seat < 27) {
        PyErr_Format(PyExc_ValueError, "fan_counts(): seat_wind must be 27..30 or -1, not %ld", seat);
        return NULL;
    }
    PyObject *rows = nargs > 8 && args[8] != Py_None ? args[8] : NULL;
    x.t = table == 0 ? &FF_TABLE_GB : &FF_TABLE_TWO_P;
    if (rows && (!PyTuple_Check(rows) || PyTuple_GET_SIZE(rows) != x.t->n_rows)) {
        PyErr_Format(PyExc_ValueError, "fan_counts(): rows must be a tuple of the %d rows",
                     x.t->n_rows);
        return NULL;
    }
    if (read_concealed(args[0], x.conc) < 0 || read_melds(args[1], &x) < 0) return NULL;
    x.win = (int)win, x.flags = (int)flags, x.round = (int)round, x.flowers = (int)flowers;
    x.tianhu = win < 0 || (flags & FL_TIANHU);
    x.self_drawn = (flags & FL_SELF_DRAWN) || x.tianhu;
    x.seat = seat >= 0 ? (int)seat : x.tianhu ? 27 : 28;
    x.unique_wait = -1, x.have_best = 0;
    memcpy(x.full, x.conc, sizeof x.full);
    if (win >= 0) x.full[win]++;
    memcpy(x.counts, x.full, sizeof x.counts);
    int size = 0, n_claimed = 0;
    for (int k = 0; k < NK; k++) size += x.full[k];
    for (int m = 0; m < x.n_melds; m++) {
        int first = x.meld_first[m], kind = x.meld_kind[m];
        if (kind != M_AN) n_claimed++;
        if (kind == M_CHI)
            x.counts[first]++, x.counts[first + 1]++, x.counts[first + 2]++;
        else
            x.counts[first] += kind == M_PENG ? 3 : 4;
    }
    if (size != 14 - 3 * x.n_melds) Py_RETURN_NONE; /* the wrong size: no reading */
    x.n_kinds = 0;
    for (int k = 0; k < NK; k++) {
        if (x.counts[k] > 4) Py_RETURN_NONE; /* a fifth copy: no reading */
        if (x.counts[k]) x.kinds[x.n_kinds++] = k;
    }
    x.features = hand_features(&x, n_claimed);
    all_readings(&x);
    if (!x.have_best) Py_RETURN_NONE;
    const Result *r = &x.best;
    int n_out = r->n, total = r->total, bonus_row = -1;
    if (x.flowers)
        for (int i = 0; i < x.t->n_rows; i++)
            if (x.t->rows[i].flags & FR_BONUS) bonus_row = i, n_out++;
    PyObject *fans = PyTuple_New(n_out);
    if (!fans) return NULL;
    for (int q = 0; q < n_out; q++) {
        int row = q < r->n ? r->rows[q] : bonus_row;
        int count = q < r->n ? r->counts[q] : x.flowers;
        if (q >= r->n) total += x.t->rows[row].value * count;
        PyObject *key = rows ? Py_NewRef(PyTuple_GET_ITEM(rows, row)) : PyLong_FromLong(row);
        PyObject *pair = key ? PyTuple_New(2) : NULL;
        PyObject *cnt = pair ? PyLong_FromLong(count) : NULL;
        if (!cnt) {
            Py_XDECREF(key);
            Py_XDECREF(pair);
            Py_DECREF(fans);
            return NULL;
        }
        PyTuple_SET_ITEM(pair, 0, key);
        PyTuple_SET_ITEM(pair, 1, cnt);
        PyTuple_SET_ITEM(fans, q, pair);
    }
    PyObject *tot = PyLong_FromLong(total);
    if (!tot) {
        Py_DECREF(fans);
        return NULL;
    }
    PyObject *out = PyTuple_New(2);
    if (!out) {
        Py_DECREF(tot);
        Py_DECREF(fans);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, tot);
    PyTuple_SET_ITEM(out, 1, fans);
    return out;
}

static PyMethodDef fastfan_methods[] = {
    {"fan_counts", (PyCFunction)(void (*)(void))fan_counts, METH_FASTCALL, fan_counts_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(module_doc, "The Guobiao fan calculation in C (see _fastfan.c); the Python "
                         "calculator is its oracle.");

static struct PyModuleDef fastfan_module = {
    PyModuleDef_HEAD_INIT, "_fastfan", module_doc, -1, fastfan_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastfan(void) {
    PyObject *m = PyModule_Create(&fastfan_module);
    if (!m) return NULL;
    static const struct {
        const char *name;
        long value;
    } consts[] = {
        {"SELF_DRAWN", FL_SELF_DRAWN},     {"LAST_COPY", FL_LAST_COPY},
        {"LAST_TILE", FL_LAST_TILE},       {"KONG_REPLACEMENT", FL_KONG_REPLACEMENT},
        {"ROBBING_KONG", FL_ROBBING_KONG}, {"TING", FL_TING},
        {"TIANTING", FL_TIANTING},         {"TIANHU", FL_TIANHU},
        {"DIHU", FL_DIHU},                 {"N_IDS", FF_N_IDS},
    };
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
        if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
