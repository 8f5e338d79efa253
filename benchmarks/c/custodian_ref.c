/* A plain C reference of Custodian Dice, for `diceboard bench custodian --against-c`.
 *
 * The same rules as the numba kernel (src/diceboard/games/custodian/kernel/), on the same
 * state array layout and action ids, for the options jumping on/off, faces "turn", path
 * "no-reversal", capture line/single, placement chosen/rolled and any no-capture limit.
 * Written the way a careful C programmer would: bit masks, no allocation while playing; and
 * doing the same work per ply as the kernel (jumps found from masks, the Zobrist hash updated
 * incrementally, dice counted only after a capture, splitmix64 random choices), so that
 * `--against-c` compares the compiled code, not the algorithms.
 * tests/custodian/test_c_reference.py checks it against the kernel's perft.
 *
 *   custodian_ref playouts SECONDS SEED [JUMPING SINGLE ROLLED LIMIT]
 *       random games from the initial state (setup rolls and placement included) for about
 *       SECONDS; prints "plies chance games first second draws seconds"
 *   custodian_ref games N SEED [JUMPING SINGLE ROLLED LIMIT]
 *       exactly N such games, the same games as the kernel's random_playouts with that seed
 *       (the same splitmix64 stream, the same actions in the same order)
 *   custodian_ref perft DEPTH < input
 *       input: 6 options, 463 Zobrist keys, 49 state ints, the history length and hashes;
 *       prints the perft count (every action, chance outcomes included, counts as a branch)
 *
 * Build: gcc -O3 -march=native -o custodian_ref custodian_ref.c (as --against-c builds it)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TO_MOVE = 0, RESULT = 1, REASON = 2, CLOCK = 3, PLY = 4, HASH = 5, CHANCE = 6, PHASE = 7,
       BOARD = 8, PENDING_SQ = 33, LAST_PASS = 34, HAND = 35, UNROLLED = 47, STATE_LEN = 49 };
enum { PH_ROLLS = 0, PH_PLACEMENT = 1, PH_PLAY = 2 };
enum { STEP_TURN = 0, STEP_ROLL = 3750, JUMP = 4375, PLACE = 4475, PASS = 4625,
       CHANCE_OUTCOME = 4626, MAX_LEGAL = 640, HIST_CAP = 4096 };
enum { K_CELL = 0, K_TO_MOVE = 375, K_PHASE = 376, K_HAND = 379, K_UNROLLED = 451, NKEYS = 463 };

#define FULL ((1u << 25) - 1)
#define RANK1 (1u | 1u << 5 | 1u << 10 | 1u << 15 | 1u << 20)
#define RANK5 (RANK1 << 4)

static int opt_jumping = 1, opt_single = 0, opt_rolled = 0;
static int64_t opt_limit = 100;
static int64_t keys[NKEYS];
static int nb[25][4]; /* W, S, N, E; -1 off the board */

typedef struct {
    int64_t s[STATE_LEN];
    int64_t hist[HIST_CAP];
    int nhist;
} Game;

static void init_geometry(void) {
    static const int df[4] = {-1, 0, 0, 1}, dr[4] = {0, -1, 1, 0};
    for (int sq = 0; sq < 25; sq++)
        for (int d = 0; d < 4; d++) {
            int f = sq / 5 + df[d], r = sq % 5 + dr[d];
            nb[sq][d] = (f >= 0 && f < 5 && r >= 0 && r < 5) ? f * 5 + r : -1;
        }
}

static uint64_t rng_state;
static inline uint64_t next_u64(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline int below(int n) { return (int)(((next_u64() >> 32) * (uint64_t)n) >> 32); }

static inline int64_t cell_key(int sq, int64_t v) { return keys[K_CELL + sq * 15 + v + 7]; }

static int64_t full_hash(const int64_t *s) {
    int64_t h = 0;
    for (int sq = 0; sq < 25; sq++)
        if (s[BOARD + sq]) h ^= keys[K_CELL + sq * 15 + s[BOARD + sq] + 7];
    if (s[TO_MOVE] == 1) h ^= keys[K_TO_MOVE];
    h ^= keys[K_PHASE + s[PHASE]];
    for (int p = 0; p < 2; p++) {
        for (int f = 0; f < 6; f++) {
            int64_t c = s[HAND + 6 * p + f];
            if (c > 0) h ^= keys[K_HAND + p * 36 + f * 6 + c];
        }
        if (s[UNROLLED + p] > 0) h ^= keys[K_UNROLLED + p * 6 + s[UNROLLED + p]];
    }
    return h;
}

static inline uint32_t shift(uint32_t m, int d) {
    switch (d) {
    case 0: return m >> 5;
    case 1: return (m & ~RANK1) >> 1;
    case 2: return (m & ~RANK5) << 1;
    default: return (m << 5) & FULL;
    }
}

static inline uint32_t destinations(int start, int len, uint32_t empty) {
    uint32_t b = 1u << start;
    uint32_t l0 = shift(b, 0) & empty, l1 = shift(b, 1) & empty;
    uint32_t l2 = shift(b, 2) & empty, l3 = shift(b, 3) & empty;
    for (int i = 1; i < len; i++) {
        uint32_t n0 = shift(l0 | l1 | l2, 0) & empty, n1 = shift(l0 | l1 | l3, 1) & empty;
        uint32_t n2 = shift(l0 | l2 | l3, 2) & empty, n3 = shift(l1 | l2 | l3, 3) & empty;
        l0 = n0; l1 = n1; l2 = n2; l3 = n3;
    }
    return l0 | l1 | l2 | l3;
}

/* the dice of own that can jump in direction d: a die next to them that way, an empty square
 * beyond (whole masks at once, as the kernel does) */
static inline uint32_t jumpers(uint32_t own, uint32_t occ, uint32_t empty, int d) {
    return own & shift(shift(empty, 3 - d) & occ, 3 - d);
}

static int legal_actions(const int64_t *s, int *out) {
    if (s[RESULT]) return 0;
    if (s[CHANCE]) {
        for (int k = 0; k < 6; k++) out[k] = CHANCE_OUTCOME + k;
        return 6;
    }
    int n = 0;
    if (s[PHASE] == PH_PLACEMENT) {
        int p = (int)s[TO_MOVE], rank = p == 0 ? 0 : 4;
        for (int face = 1; face <= 6; face++) {
            if (!s[HAND + 6 * p + face - 1]) continue;
            for (int f = 0; f < 5; f++)
                if (!s[BOARD + f * 5 + rank]) out[n++] = PLACE + (face - 1) * 25 + f * 5 + rank;
        }
        return n;
    }
    int sign = s[TO_MOVE] == 0 ? 1 : -1;
    uint32_t occ = 0, own = 0;
    for (int sq = 0; sq < 25; sq++) {
        int64_t v = s[BOARD + sq];
        if (v) { occ |= 1u << sq; if (v * sign > 0) own |= 1u << sq; }
    }
    uint32_t empty = ~occ & FULL;
    uint32_t jumps[4] = {0, 0, 0, 0};
    if (opt_jumping)
        for (int d = 0; d < 4; d++) jumps[d] = jumpers(own, occ, empty, d);
    while (own) {
        int sq = __builtin_ctz(own);
        own &= own - 1;
        int face = (int)(s[BOARD + sq] * sign);
        uint32_t dests = destinations(sq, face, empty | 1u << sq);
        while (dests) {
            int to = __builtin_ctz(dests);
            dests &= dests - 1;
            int base = STEP_TURN + sq * 150 + to * 6;
            for (int nf = 1; nf <= 6; nf++)
                if (nf != face && nf != 7 - face) out[n++] = base + nf - 1;
        }
        for (int d = 0; d < 4; d++)
            if (jumps[d] >> sq & 1) out[n++] = JUMP + sq * 4 + d;
    }
    if (n == 0) out[n++] = PASS;
    return n;
}

static void push_history(Game *g, int reset) {
    if (reset || g->nhist == 0) { g->hist[0] = g->s[HASH]; g->nhist = 1; return; }
    if (g->nhist == HIST_CAP) {
        memmove(g->hist, g->hist + 1, sizeof(int64_t) * (HIST_CAP - 1));
        g->nhist--;
    }
    g->hist[g->nhist++] = g->s[HASH];
}

static int dice_count(const int64_t *s, int sign) {
    int n = 0;
    for (int sq = 0; sq < 25; sq++) n += s[BOARD + sq] * sign > 0;
    return n;
}

/* only a capture removes dice, so elimination is checked only after one (as the kernel does) */
static void check_end(Game *g, int two_passes, int captured) {
    int64_t *s = g->s;
    if (captured && dice_count(s, 1) < 2) { s[RESULT] = 2; s[REASON] = 1; return; }
    if (captured && dice_count(s, -1) < 2) { s[RESULT] = 1; s[REASON] = 1; return; }
    if (two_passes) { s[RESULT] = 3; s[REASON] = 2; return; }
    int c = 0;
    for (int i = 0; i < g->nhist; i++) c += g->hist[i] == s[HASH];
    if (c >= 3) { s[RESULT] = 3; s[REASON] = 3; return; }
    if (opt_limit > 0 && s[CLOCK] >= opt_limit) { s[RESULT] = 3; s[REASON] = 4; }
}

static int resolve_captures(int64_t *s, int sq) {
    int mover = s[BOARD + sq] > 0 ? 1 : -1;
    int victims[16], nv = 0;
    for (int d = 0; d < 4; d++) {
        int run = 0, cur = nb[sq][d];
        while (cur >= 0 && s[BOARD + cur] * mover < 0) { run++; cur = nb[cur][d]; }
        if (run == 0 || cur < 0 || s[BOARD + cur] * mover <= 0) continue;
        if (opt_single && run != 1) continue;
        cur = nb[sq][d];
        for (int k = 0; k < run; k++) { victims[nv++] = cur; cur = nb[cur][d]; }
    }
    for (int i = 0; i < nv; i++) { /* the hash follows each removal */
        s[HASH] ^= cell_key(victims[i], s[BOARD + victims[i]]);
        s[BOARD + victims[i]] = 0;
    }
    return nv;
}

static void finish_move(Game *g, int sq, int is_pass) {
    int64_t *s = g->s;
    int captured = sq >= 0 ? resolve_captures(s, sq) : 0;
    if (captured) s[CLOCK] = 0;
    int two_passes = is_pass && s[LAST_PASS] == 1;
    s[LAST_PASS] = is_pass;
    s[TO_MOVE] = 1 - s[TO_MOVE];
    s[HASH] ^= keys[K_TO_MOVE]; /* the move and its captures kept the rest of the hash */
    push_history(g, captured > 0);
    check_end(g, two_passes, captured > 0);
}

static int hand_size(const int64_t *s, int p) {
    int n = 0;
    for (int f = 0; f < 6; f++) n += (int)s[HAND + 6 * p + f];
    return n;
}

static void new_game(Game *g) {
    memset(g->s, 0, sizeof g->s);
    g->s[PHASE] = PH_ROLLS;
    g->s[CHANCE] = 1;
    g->s[PENDING_SQ] = -1;
    g->s[UNROLLED] = 5;
    g->s[UNROLLED + 1] = 5;
    g->s[HASH] = full_hash(g->s);
    g->nhist = 0;
}

static void step(Game *g, int a) {
    int64_t *s = g->s;
    if (a >= CHANCE_OUTCOME) { /* a setup roll (Chaos is not part of this reference) */
        int face = a - CHANCE_OUTCOME + 1;
        int p = s[UNROLLED] > 0 ? 0 : 1;
        s[UNROLLED + p]--;
        if (opt_rolled) {
            int rank = p == 0 ? 0 : 4;
            for (int f = 0; f < 5; f++)
                if (!s[BOARD + f * 5 + rank]) { s[BOARD + f * 5 + rank] = p == 0 ? face : -face; break; }
        } else {
            s[HAND + 6 * p + face - 1]++;
        }
        if (s[UNROLLED] == 0 && s[UNROLLED + 1] == 0) {
            s[CHANCE] = 0;
            s[TO_MOVE] = 0;
            s[PHASE] = opt_rolled ? PH_PLAY : PH_PLACEMENT;
        }
        s[HASH] = full_hash(s);
        if (s[PHASE] == PH_PLAY) push_history(g, 1);
        return;
    }
    if (a >= PASS) {
        s[PLY]++;
        s[CLOCK]++;
        finish_move(g, -1, 1);
        return;
    }
    if (a >= PLACE) {
        int rel = a - PLACE, face = rel / 25 + 1, sq = rel % 25, p = (int)s[TO_MOVE], done = 0;
        s[HAND + 6 * p + face - 1]--;
        s[BOARD + sq] = p == 0 ? face : -face;
        s[PLY]++;
        if (hand_size(s, p) == 0) {
            if (p == 0 && hand_size(s, 1) > 0) s[TO_MOVE] = 1;
            else { s[TO_MOVE] = 0; s[PHASE] = PH_PLAY; done = 1; }
        }
        s[HASH] = full_hash(s);
        if (done) push_history(g, 1);
        return;
    }
    int sign = s[TO_MOVE] == 0 ? 1 : -1, frm, to, nf;
    if (a >= JUMP) {
        int rel = a - JUMP;
        frm = rel / 4;
        to = nb[nb[frm][rel % 4]][rel % 4]; /* a legal jump lands two squares on */
        nf = 7 - (int)(s[BOARD + frm] * sign);
    } else {
        frm = a / 150;
        to = (a / 6) % 25;
        nf = a % 6 + 1;
    }
    s[HASH] ^= cell_key(frm, s[BOARD + frm]); /* incremental: the die leaves frm, lands on to */
    s[BOARD + frm] = 0;
    s[PLY]++;
    s[CLOCK]++;
    s[BOARD + to] = sign * nf;
    s[HASH] ^= cell_key(to, sign * nf);
    finish_move(g, to, 0);
}

static uint64_t perft(Game *g, int depth) {
    if (depth == 0) return 1;
    int moves[MAX_LEGAL];
    int n = legal_actions(g->s, moves);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    Game child;
    for (int i = 0; i < n; i++) {
        memcpy(child.s, g->s, sizeof g->s);
        memcpy(child.hist, g->hist, sizeof(int64_t) * g->nhist);
        child.nhist = g->nhist;
        step(&child, moves[i]);
        total += perft(&child, depth - 1);
    }
    return total;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    init_geometry();
    int timed = argc >= 4 && strcmp(argv[1], "playouts") == 0;
    if (timed || (argc >= 4 && strcmp(argv[1], "games") == 0)) {
        double seconds = timed ? atof(argv[2]) : 0;
        uint64_t limit = timed ? UINT64_MAX : strtoull(argv[2], NULL, 10);
        uint64_t seed = strtoull(argv[3], NULL, 10);
        if (argc >= 8) {
            opt_jumping = atoi(argv[4]);
            opt_single = atoi(argv[5]);
            opt_rolled = atoi(argv[6]);
            opt_limit = atoll(argv[7]);
        }
        rng_state = ~seed; /* the keys from a stream of their own */
        for (int i = 0; i < NKEYS; i++) keys[i] = (int64_t)next_u64();
        rng_state = seed; /* the moves as the kernel's random_playouts draws them */
        static Game g;
        int moves[MAX_LEGAL];
        uint64_t plies = 0, chance = 0, games = 0, wins[4] = {0, 0, 0, 0};
        double start = now(), elapsed = 0;
        do {
            for (int k = 0; k < 64 && games < limit; k++) {
                new_game(&g);
                while (!g.s[RESULT]) {
                    int n = legal_actions(g.s, moves);
                    if (g.s[CHANCE]) chance++; else plies++;
                    step(&g, moves[below(n)]);
                }
                games++;
                wins[g.s[RESULT]]++;
            }
            elapsed = now() - start;
        } while (timed ? elapsed < seconds : games < limit);
        printf("%llu %llu %llu %llu %llu %llu %.6f\n", (unsigned long long)plies,
               (unsigned long long)chance, (unsigned long long)games, (unsigned long long)wins[1],
               (unsigned long long)wins[2], (unsigned long long)wins[3], elapsed);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "perft") == 0) {
        int depth = atoi(argv[2]);
        long long o[6];
        for (int i = 0; i < 6; i++) if (scanf("%lld", &o[i]) != 1) return 2;
        if (o[1] != 0 || o[2] != 0) { fprintf(stderr, "only faces=turn, path=no-reversal\n"); return 2; }
        opt_jumping = (int)o[0]; opt_single = (int)o[3]; opt_rolled = (int)o[4]; opt_limit = o[5];
        for (int i = 0; i < NKEYS; i++) { long long v; if (scanf("%lld", &v) != 1) return 2; keys[i] = v; }
        static Game g;
        for (int i = 0; i < STATE_LEN; i++) { long long v; if (scanf("%lld", &v) != 1) return 2; g.s[i] = v; }
        if (scanf("%d", &g.nhist) != 1 || g.nhist > HIST_CAP - 64) return 2;
        for (int i = 0; i < g.nhist; i++) { long long v; if (scanf("%lld", &v) != 1) return 2; g.hist[i] = v; }
        printf("%llu\n", (unsigned long long)perft(&g, depth));
        return 0;
    }
    fprintf(stderr, "usage: custodian_ref playouts SECONDS SEED [OPTIONS] | games N SEED [OPTIONS] | perft DEPTH < input\n");
    return 2;
}
