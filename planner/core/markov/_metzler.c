/*
 * Compiled kernel of planner.core.markov.expm: one row of exp(G) for a stack of small
 * generators G = Q T whose last `specials` states have all-zero rows (absorbing states,
 * or Van Loan's reward columns).
 *
 * The method is the one of planner/core/markov/expm.py, whose docstring carries the
 * accuracy argument: shift to a non-negative X = G + c I, a Paterson-Stockmeyer Taylor
 * step of positive coefficients, s squarings, and the diagonal rebuilt from its row's
 * off-diagonal mass after the Taylor step and every `conserve_every` squarings. Every
 * operation adds or multiplies non-negative numbers, so tiny entries (a 1e-30 probability
 * of loss) keep their relative accuracy.
 *
 * What differs is the layout, not the arithmetic:
 *  - W matrices are interleaved ("structure of arrays", the lane index innermost), so each
 *    scalar operation of a small product is one vector operation over W matrices, whatever
 *    the size; a lane's result never depends on the other lanes (the last group is padded),
 *    hence on the chunking or the thread.
 *  - Only the n rows of the transient states are stored (n x m, m = n + a). The rows of the
 *    a special states are zero in G, so in any power of the shifted X they are (c h)^j
 *    times the identity, and in exp(G) the identity (the conservation step sets them to
 *    exactly 1, as expm.py's does): a product costs n m^2, not m^3, and each row of a
 *    product is formed with all its m entries in registers (m a compile-time constant for
 *    the common sizes), so no addition waits on the one before.
 *  - The last squaring is replaced by two vector-matrix products: row r of F F is
 *    (e_r F) F.
 *
 * The entry point releases the GIL; the caller runs chunks on several threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 8 /* matrices per lane group */

#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#define MULTIVERSION __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MULTIVERSION
#endif

typedef struct {
    int n;              /* transient states */
    int a;              /* special states (zero rows) */
    int m;              /* n + a */
    int reward;         /* the specials are Van Loan reward columns, not probability */
    int degree;         /* Taylor degree */
    int q;              /* Paterson-Stockmeyer block size */
    int blocks;         /* Paterson-Stockmeyer blocks */
    double theta;       /* largest norm of one Taylor step */
    int conserve_every; /* squarings between rebuilds of the diagonal */
    const double *coef; /* blocks x q coefficients 1 / (b q + i)! */
} Plan;

/* Where a job's matrices come from: a stack of base generators (size `size`), read as they
 * are, or edited on the way in: `moves` (row, from, to, mode) take the entry (row, from),
 * or for from >= size the extra column from - size of that row, and add it to (row, to)
 * clearing the source (mode 0: a move), add it keeping the source (mode 1), or write it
 * over (row, to) (mode 2); `gather` picks the job's m states of the base's; every entry is
 * multiplied by the lane's `scale` (a mission in hours). So the engine's four loss chains
 * are read from one generator stack, without four copies of it. */
enum { MOVE = 0, ADD = 1, ASSIGN = 2 };
typedef struct {
    const double *g;
    int size;
    const long long *gather; /* m entries, or NULL: all `size` states */
    const long long *moves;  /* move_count x 4, or NULL */
    int move_count;
    const double *scale;     /* one per lane, or NULL */
    const double *extra;     /* count x size x extra_columns, or NULL */
    int extra_columns;
    const double *start;     /* count x m: each lane's starting distribution, or NULL */
    int moves_touch_specials; /* a move's row is a special state of the job */
} Source;

/* A matrix of W lanes is its n transient rows: M[(i * m + j) * W + w]. */
typedef struct {
    double **powers; /* q + 1 powers of X (0 unused: the identity) */
    double *acc, *tmp, *f, *g;
    double *v, *u; /* a row being formed (m x W), and n x W scratch */
    double *edited; /* W x size x size: the lanes' edited matrices (Source with edits) */
    double *start;  /* m x W: the lanes' starting distributions (Source with a start) */
} Work;

static size_t msize(const Plan *p) { return (size_t)p->n * p->m * W; }

/* Row i of C = A B: C[i][j] = sum_{l < n} A[i][l] B[l][j], plus A[i][j] d_B for the
 * specials' columns j >= n (d_B: B's specials' diagonal per lane; NULL: 1). */
#define ROW_PRODUCT(M)                                                                    \
    MULTIVERSION                                                                          \
    static void row_product_##M(int n, const double *restrict ai, const double *restrict b, \
                                const double *restrict d_b, double *restrict ci) {        \
        double acc[M][W];                                                                 \
        for (int j = 0; j < M; j++)                                                       \
            for (int w = 0; w < W; w++)                                                   \
                acc[j][w] = j < n ? 0.0 : (d_b ? ai[j * W + w] * d_b[w] : ai[j * W + w]); \
        for (int l = 0; l < n; l++) {                                                     \
            const double *x = ai + (size_t)l * W;                                         \
            const double *y = b + (size_t)l * M * W;                                      \
            for (int j = 0; j < M; j++)                                                   \
                for (int w = 0; w < W; w++) acc[j][w] += x[w] * y[j * W + w];             \
        }                                                                                 \
        for (int j = 0; j < M; j++)                                                       \
            for (int w = 0; w < W; w++) ci[j * W + w] = acc[j][w];                        \
    }

ROW_PRODUCT(2)
ROW_PRODUCT(3)
ROW_PRODUCT(4)
ROW_PRODUCT(5)
ROW_PRODUCT(6)
ROW_PRODUCT(7)
ROW_PRODUCT(8)
ROW_PRODUCT(9)
ROW_PRODUCT(10)
ROW_PRODUCT(11)
ROW_PRODUCT(12)
ROW_PRODUCT(13)
ROW_PRODUCT(14)
ROW_PRODUCT(15)
ROW_PRODUCT(16)

typedef void (*RowProduct)(int, const double *, const double *, const double *, double *);

static const RowProduct row_products[] = {
    NULL,           NULL,           row_product_2,  row_product_3,  row_product_4,
    row_product_5,  row_product_6,  row_product_7,  row_product_8,  row_product_9,
    row_product_10, row_product_11, row_product_12, row_product_13, row_product_14,
    row_product_15, row_product_16,
};
#define MAX_UNROLLED 16

/* Any size: the same sums in the same order, the row's accumulators in memory. */
static void row_product_any(int n, int m, const double *ai, const double *b, const double *d_b,
                            double *ci) {
    for (int j = 0; j < m; j++)
        for (int w = 0; w < W; w++)
            ci[j * W + w] = j < n ? 0.0 : (d_b ? ai[j * W + w] * d_b[w] : ai[j * W + w]);
    for (int l = 0; l < n; l++) {
        const double *x = ai + (size_t)l * W;
        const double *y = b + (size_t)l * m * W;
        for (int j = 0; j < m; j++)
            for (int w = 0; w < W; w++) ci[j * W + w] += x[w] * y[j * W + w];
    }
}

/* C = A B (n transient rows each; C must not be A or B). */
static void product(const Plan *p, const double *A, const double *B, const double *d_b,
                    double *C) {
    const int n = p->n, m = p->m;
    const size_t row = (size_t)m * W;
    RowProduct fn = (m >= 2 && m <= MAX_UNROLLED) ? row_products[m] : NULL;
    for (int i = 0; i < n; i++) {
        if (fn)
            fn(n, A + i * row, B, d_b, C + i * row);
        else
            row_product_any(n, m, A + i * row, B, d_b, C + i * row);
    }
}

/* One row (m x W) times B: the row of a product. */
static void product_row(const Plan *p, const double *ai, const double *B, const double *d_b,
                        double *ci) {
    const int n = p->n, m = p->m;
    if (m >= 2 && m <= MAX_UNROLLED)
        row_products[m](n, ai, B, d_b, ci);
    else
        row_product_any(n, m, ai, B, d_b, ci);
}

/* acc = (first ? 0 : acc) + sum_{1 <= i < q} coef[i] X^i over `count` doubles, one pass. */
MULTIVERSION
static void block_sum(size_t count, int q, const double *coef, double *const *powers,
                      double *restrict acc, int first) {
    for (size_t e = 0; e < count; e += W) {
        double sum[W];
        for (int w = 0; w < W; w++) sum[w] = first ? 0.0 : acc[e + w];
        for (int i = 1; i < q; i++) {
            const double *x = powers[i] + e;
            const double c = coef[i];
            for (int w = 0; w < W; w++) sum[w] += c * x[w];
        }
        for (int w = 0; w < W; w++) acc[e + w] = sum[w];
    }
}

/* The rebuilt diagonal: F_ii = 1 - (off-diagonal mass of row i) where that mass <= 1/2
 * (the reward columns hold integrals, not probability: not counted). */
MULTIVERSION
static void conserve(const Plan *p, double *F) {
    const int n = p->n, m = p->m, mass_columns = p->reward ? n : m;
    for (int i = 0; i < n; i++) {
        const double *row = F + (size_t)i * m * W;
        double mass[W] = {0};
        for (int j = 0; j < i; j++)
            for (int w = 0; w < W; w++) mass[w] += row[j * W + w];
        for (int j = i + 1; j < mass_columns; j++)
            for (int w = 0; w < W; w++) mass[w] += row[j * W + w];
        double *d = F + ((size_t)i * m + i) * W;
        for (int w = 0; w < W; w++) d[w] = mass[w] <= 0.5 ? 1.0 - mass[w] : d[w];
    }
}

/* The W lanes' matrices of the job, each shifted and scaled, as X into powers[1], with each
 * lane's shift c h and squarings s. `bases[w]` is lane w's matrix (`size` x `size`,
 * row-major) and `gather` the job's states in it (NULL: all); `moves` are applied to the
 * transient rows here, `scale` (one factor per lane, or NULL) multiplies every entry.
 * Returns 0, or 1 for a negative or non-finite off-diagonal entry, 2 for a special row
 * that is not zero. */
MULTIVERSION
static int load_group(const Plan *p, const double *const *bases, int size,
                      const long long *gather, const long long *moves, int move_count,
                      const double *const *extras, int extra_columns,
                      const double *scale_of_lane, Work *k, double *shift_scaled, int *steps) {
    const int n = p->n, m = p->m, kept = p->reward ? n : m;
    double *x = k->powers[1];
    int bad = 0;
    /* the job's special rows (absorbing or reward states) must be zero off the diagonal */
    for (int w = 0; w < W; w++)
        for (int i = n; i < m; i++) {
            const double *row = bases[w] + (size_t)(gather ? gather[i] : i) * size;
            for (int j = 0; j < m; j++) bad |= (j != i) & (row[gather ? gather[j] : j] != 0.0);
        }
    if (bad) return 2;
    /* the transient rows, interleaved: lane w's entry (i, j) at x[(i m + j) W + w] */
    for (int i = 0; i < n; i++) {
        const size_t source_row = (size_t)(gather ? gather[i] : i) * size;
        for (int j = 0; j < m; j++) {
            const size_t source = source_row + (size_t)(gather ? gather[j] : j);
            double *cell = x + ((size_t)i * m + j) * W;
            for (int w = 0; w < W; w++) cell[w] = bases[w][source];
        }
    }
    for (int e = 0; e < move_count; e++) { /* (row, from, to, mode), rows < n (checked) */
        const long long *mv = moves + 4 * e;
        double value[W];
        double *from = mv[1] < size ? x + ((size_t)mv[0] * m + mv[1]) * W : NULL;
        for (int w = 0; w < W; w++)
            value[w] = from ? from[w] : extras[w][mv[0] * extra_columns + (mv[1] - size)];
        double *to = x + ((size_t)mv[0] * m + mv[2]) * W;
        for (int w = 0; w < W; w++) to[w] = mv[3] == ASSIGN ? value[w] : to[w] + value[w];
        if (mv[3] == MOVE && from)
            for (int w = 0; w < W; w++) from[w] = 0.0;
    }
    if (scale_of_lane)
        for (size_t e = 0; e < (size_t)n * m * W; e += W)
            for (int w = 0; w < W; w++) x[e + w] *= scale_of_lane[w];
    double c[W] = {0}, rewards_max[W] = {0};
    double *exits_of = k->u; /* n x W: each row's exit rate, kept for the diagonal */
    for (int i = 0; i < n; i++) {
        double *row = x + (size_t)i * m * W;
        double rewards[W] = {0}, exits[W] = {0};
        for (int w = 0; w < W; w++) row[i * W + w] = 0.0;
        for (int j = 0; j < kept; j++)
            for (int w = 0; w < W; w++) {
                bad |= !(row[j * W + w] >= 0.0) | (row[j * W + w] == INFINITY);
                exits[w] += row[j * W + w];
            }
        for (int j = kept; j < m; j++)
            for (int w = 0; w < W; w++) {
                bad |= !(row[j * W + w] >= 0.0) | (row[j * W + w] == INFINITY);
                rewards[w] += row[j * W + w];
            }
        for (int w = 0; w < W; w++) {
            exits_of[i * W + w] = exits[w];
            c[w] = exits[w] > c[w] ? exits[w] : c[w];
            rewards_max[w] = rewards[w] > rewards_max[w] ? rewards[w] : rewards_max[w];
        }
    }
    if (bad) return 1;
    double scale[W];
    for (int w = 0; w < W; w++) {
        /* ||X||_inf: each row of X sums to c, plus its rewards */
        double norm = c[w] + rewards_max[w];
        int s = 0;
        if (norm > p->theta && isfinite(norm)) {
            int e;
            double f = frexp(norm / p->theta, &e); /* norm / theta = f 2^e, f in [1/2, 1) */
            s = (f == 0.5) ? e - 1 : e;
        }
        scale[w] = ldexp(1.0, -s);
        shift_scaled[w] = c[w] * scale[w];
        steps[w] = s;
    }
    for (int i = 0; i < n; i++) {
        double *row = x + (size_t)i * m * W;
        for (int j = 0; j < m; j++)
            for (int w = 0; w < W; w++) row[j * W + w] *= scale[w];
        for (int w = 0; w < W; w++) row[i * W + w] = (c[w] - exits_of[i * W + w]) * scale[w];
    }
    return 0;
}

/* exp(-c h) sum_{j <= degree} X^j / j! into k->f (Paterson-Stockmeyer, positive terms). */
static void taylor(const Plan *p, Work *k, const double *shift_scaled) {
    const size_t ms = msize(p);
    const int n = p->n, m = p->m, q = p->q;
    double diag_q[W]; /* the specials' diagonal of X^q: (c h)^q */
    /* X^j = X^(j-1) X: X's specials' diagonal is c h */
    for (int j = 2; j <= q; j++) product(p, k->powers[j - 1], k->powers[1], shift_scaled, k->powers[j]);
    for (int w = 0; w < W; w++) {
        double power = 1.0;
        for (int j = 0; j < q; j++) power *= shift_scaled[w];
        diag_q[w] = power;
    }
    /* Horner over the blocks B_b = sum_{i < q} coef[b][i] X^i: acc = acc X^q + B_b */
    double *acc = k->acc, *tmp = k->tmp;
    for (int b = p->blocks - 1; b >= 0; b--) {
        const int first = b == p->blocks - 1;
        if (!first) {
            product(p, acc, k->powers[q], diag_q, tmp);
            double *swap = acc;
            acc = tmp;
            tmp = swap;
        }
        const double *coef = p->coef + (size_t)b * q;
        block_sum(ms, q, coef, k->powers, acc, first);
        for (int i = 0; i < n; i++) { /* X^0: the identity */
            double *d = acc + ((size_t)i * m + i) * W;
            for (int w = 0; w < W; w++) d[w] += coef[0];
        }
    }
    double factor[W];
    for (int w = 0; w < W; w++) factor[w] = exp(-shift_scaled[w]);
    for (size_t e = 0; e < ms; e += W)
        for (int w = 0; w < W; w++) acc[e + w] *= factor[w];
    /* acc becomes f; the old f becomes the spare */
    k->tmp = tmp;
    k->acc = k->f;
    k->f = acc;
}

/* Lane `lane`'s base matrix edited by the moves, then gathered (m x m): for jobs whose moves
 * the interleaved load cannot apply (moves with a gather). The scale is applied later. */
static const double *edited_copy(const Plan *p, const Source *src, long long lane, int w,
                                 Work *k) {
    const size_t big = (size_t)src->size;
    const double *base = src->g + (size_t)lane * big * big;
    double *copy = k->edited + (size_t)w * big * big;
    memcpy(copy, base, big * big * sizeof(double));
    const double *extra = src->extra ? src->extra + (size_t)lane * big * src->extra_columns : NULL;
    for (int e = 0; e < src->move_count; e++) {
        const long long *mv = src->moves + 4 * e;
        const int inside = mv[1] < (long long)big;
        double value = inside ? copy[mv[0] * big + mv[1]]
                              : extra[mv[0] * src->extra_columns + (mv[1] - (long long)big)];
        double *to = &copy[mv[0] * big + mv[2]];
        *to = mv[3] == ASSIGN ? value : *to + value;
        if (mv[3] == MOVE && inside) copy[mv[0] * big + mv[1]] = 0.0;
    }
    if (!src->gather) return copy;
    double *job = k->edited + (size_t)W * big * big + (size_t)w * p->m * p->m;
    for (int i = 0; i < p->m; i++)
        for (int j = 0; j < p->m; j++)
            job[i * p->m + j] = copy[src->gather[i] * big + src->gather[j]];
    return job;
}

/* One lane group: lanes[0..W) index G; out[lane] gets row `row` of exp(G[lane]). */
static int run_group(const Plan *p, const Source *src, const long long *lanes, int used, int row,
                     double *out, Work *k) {
    double shift_scaled[W], scale[W];
    const double *lane_g[W], *lane_extra[W];
    int steps[W], top = 0;
    /* moves on a gathered job, or on a special row: applied to a copy of each matrix */
    int copies = src->moves && (src->gather || src->moves_touch_specials);
    for (int w = 0; w < W; w++) {
        long long lane = lanes[w < used ? w : used - 1];
        const size_t big = (size_t)src->size;
        lane_g[w] = copies ? edited_copy(p, src, lane, w, k) : src->g + (size_t)lane * big * big;
        scale[w] = src->scale ? src->scale[lane] : 1.0;
        lane_extra[w] =
            src->extra ? src->extra + (size_t)lane * big * src->extra_columns : NULL;
    }
    const double *factor = src->scale ? scale : NULL;
    int err = copies ? load_group(p, lane_g, p->m, NULL, NULL, 0, NULL, 0, factor, k,
                                  shift_scaled, steps)
                     : load_group(p, lane_g, src->size, src->gather, src->moves, src->move_count,
                                  lane_extra, src->extra_columns, factor, k, shift_scaled, steps);
    if (err) return err;
    for (int w = 0; w < W; w++)
        if (steps[w] - 1 > top) top = steps[w] - 1;
    if (src->start)
        for (int w = 0; w < W; w++) {
            const double *pi = src->start + (size_t)lanes[w < used ? w : used - 1] * p->m;
            for (int j = 0; j < p->m; j++) k->start[(size_t)j * W + w] = pi[j];
        }
    taylor(p, k, shift_scaled);
    conserve(p, k->f);
    const size_t row_len = (size_t)p->m * W;
    for (int level = -1; level <= top; level++) {
        /* lanes whose squarings are all done take their row: exp(G) is F itself when s = 0,
         * else one squaring is still due, of which only the row is needed: e_row F F (or,
         * from a starting distribution pi, pi F F) */
        int taking = 0;
        for (int w = 0; w < used; w++)
            taking |= (steps[w] == 0 && level == -1) || (steps[w] > 0 && steps[w] - 1 == level);
        if (taking) {
            const double *source = k->f + (size_t)row * row_len;
            if (src->start) {
                product_row(p, k->start, k->f, NULL, k->u);
                source = k->u;
            }
            if (level >= 0) {
                product_row(p, source, k->f, NULL, k->v);
                source = k->v;
            }
            for (int w = 0; w < used; w++) {
                if (!((steps[w] == 0 && level == -1) || (steps[w] > 0 && steps[w] - 1 == level)))
                    continue;
                double *dest = out + (size_t)lanes[w] * p->m;
                for (int j = 0; j < p->m; j++) dest[j] = source[(size_t)j * W + w];
            }
        }
        if (level < 0 || level == top) continue;
        product(p, k->f, k->f, NULL, k->g);
        double *swap = k->f;
        k->f = k->g;
        k->g = swap;
        if (level % p->conserve_every == p->conserve_every - 1) conserve(p, k->f);
    }
    return 0;
}

static int alloc_work(const Plan *p, const Source *src, Work *k, double **arena) {
    const size_t ms = msize(p);
    size_t row_space = (size_t)p->m * W; /* also n x W scratch: n < m */
    size_t edited = (size_t)W * ((size_t)src->size * src->size + (size_t)p->m * p->m);
    size_t total = ((size_t)p->q + 1 + 4) * ms + 3 * row_space + edited;
    double *mem = calloc(total, sizeof(double));
    double **powers = calloc((size_t)p->q + 1, sizeof(double *));
    if (!mem || !powers) {
        free(mem);
        free(powers);
        return -1;
    }
    double *cur = mem;
    for (int j = 0; j <= p->q; j++, cur += ms) powers[j] = cur;
    k->acc = cur;
    k->tmp = cur + ms;
    k->f = cur + 2 * ms;
    k->g = cur + 3 * ms;
    cur += 4 * ms;
    k->v = cur;
    k->u = cur + row_space;
    k->start = cur + 2 * row_space;
    k->edited = cur + 3 * row_space;
    k->powers = powers;
    *arena = mem;
    return 0;
}

static const char doc_expm_rows[] =
    "expm_rows(g, out, lanes, row, specials, reward, degree, theta, conserve_every, coef,\n"
    "          gather, moves, scale, extra, start)\n"
    "--\n\n"
    "Row `row` of exp(G[lane]) into out[lane] for each lane of `lanes` (int64), where G is\n"
    "g[lane] (float64, (count, size, size), C order) edited by `moves` (int64 (e, 4): row,\n"
    "from, to, mode 0 move / 1 add / 2 assign; from >= size: column from - size of\n"
    "extra[lane], float64 (count, size, columns) or None), restricted to the states\n"
    "`gather` (int64 (m,) or None) and\n"
    "(with `start`, float64 (count, m) or None: start[lane] exp(G) instead of the row) and\n"
    "multiplied by scale[lane] (float64 (count,) or None). G's off-diagonal entries must be\n"
    ">= 0 and its last `specials` rows zero; out: writable float64 (count, m); coef: float64\n"
    "(blocks, q) Taylor coefficients 1 / (b q + i)! covering `degree`. Raises ValueError on a\n"
    "negative off-diagonal entry or a special row that is not zero. Releases the GIL.";

/* A buffer of `kind` items (or None), its count in *n; -1 and an error if malformed. */
static int optional_buffer(PyObject *obj, Py_buffer *view, size_t item, Py_ssize_t *n) {
    *n = 0;
    if (obj == Py_None) return 0;
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE)) return -1;
    if (view->len % (Py_ssize_t)item) {
        PyBuffer_Release(view);
        view->obj = NULL;
        PyErr_SetString(PyExc_ValueError, "expm_rows: a buffer of the wrong item size");
        return -1;
    }
    *n = view->len / (Py_ssize_t)item;
    return 1;
}

static PyObject *expm_rows(PyObject *self, PyObject *args) {
    Py_buffer g, out, lanes, coef, gather = {0}, moves = {0}, scale = {0}, extra = {0};
    Py_buffer start = {0};
    PyObject *gather_in, *moves_in, *scale_in, *extra_in, *start_in;
    int row, specials, reward, degree, conserve_every;
    double theta;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*w*y*iiiidiy*OOOOO", &g, &out, &lanes, &row, &specials,
                          &reward, &degree, &theta, &conserve_every, &coef, &gather_in,
                          &moves_in, &scale_in, &extra_in, &start_in))
        return NULL;
    PyObject *result = NULL;
    Plan p;
    Source src = {0};
    Py_ssize_t gathered, move_items, scales, extras, starts;
    if (optional_buffer(gather_in, &gather, sizeof(long long), &gathered) < 0 ||
        optional_buffer(moves_in, &moves, sizeof(long long), &move_items) < 0 ||
        optional_buffer(scale_in, &scale, sizeof(double), &scales) < 0 ||
        optional_buffer(extra_in, &extra, sizeof(double), &extras) < 0 ||
        optional_buffer(start_in, &start, sizeof(double), &starts) < 0)
        goto done;
    if (out.len % (Py_ssize_t)sizeof(double) || g.len % (Py_ssize_t)sizeof(double) ||
        lanes.len % (Py_ssize_t)sizeof(long long) || coef.len % (Py_ssize_t)sizeof(double) ||
        move_items % 4) {
        PyErr_SetString(PyExc_ValueError, "expm_rows: buffers of the wrong item size");
        goto done;
    }
    size_t count, size, m;
    {
        size_t outs = (size_t)out.len / sizeof(double), gs = (size_t)g.len / sizeof(double);
        if (outs == 0) {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        /* out holds count x m, g count x size^2: m = size unless gathered */
        if (gathered) {
            m = (size_t)gathered;
            count = outs / m;
            size = 0;
            while ((size + 1) * (size + 1) * count <= gs) size++;
        } else {
            size = gs / outs;
            m = size;
            count = size ? outs / size : 0;
        }
        if (!size || !count || outs != count * m || gs != count * size * size ||
            (scales && (size_t)scales != count) || (starts && (size_t)starts != count * m)) {
            PyErr_SetString(PyExc_ValueError, "expm_rows: g, out and scale do not match");
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < gathered; i++) {
        long long state = ((const long long *)gather.buf)[i];
        if (state < 0 || (size_t)state >= size) {
            PyErr_SetString(PyExc_IndexError, "expm_rows: gathered state out of range");
            goto done;
        }
    }
    {
        size_t extra_columns = extras ? (size_t)extras / (count * size) : 0;
        if (extras && extra_columns * count * size != (size_t)extras) {
            PyErr_SetString(PyExc_ValueError, "expm_rows: extra is not (count, size, columns)");
            goto done;
        }
        src.extra = extras ? extra.buf : NULL;
        src.extra_columns = (int)extra_columns;
    }
    for (Py_ssize_t i = 0; i < move_items; i += 4) {
        const long long *mv = (const long long *)moves.buf + i;
        if (mv[0] < 0 || (size_t)mv[0] >= size || mv[2] < 0 || (size_t)mv[2] >= size ||
            mv[1] < 0 || (size_t)mv[1] >= size + (size_t)src.extra_columns || mv[3] < MOVE ||
            mv[3] > ASSIGN) {
            PyErr_SetString(PyExc_IndexError, "expm_rows: a move out of range");
            goto done;
        }
    }
    src.g = g.buf;
    src.size = (int)size;
    src.gather = gathered ? gather.buf : NULL;
    src.moves = move_items ? moves.buf : NULL;
    src.move_count = (int)(move_items / 4);
    src.scale = scales ? scale.buf : NULL;
    src.start = starts ? start.buf : NULL;
    for (int e = 0; e < src.move_count; e++)
        src.moves_touch_specials |= src.moves[4 * e] >= (long long)m - specials;
    p.m = (int)m;
    p.a = specials;
    p.n = p.m - specials;
    p.reward = reward;
    p.degree = degree;
    p.theta = theta;
    p.conserve_every = conserve_every < 1 ? 1 : conserve_every;
    p.coef = coef.buf;
    if (specials < 0 || p.n < 1 || row < 0 || row >= p.n || degree < 1 || !(theta > 0)) {
        PyErr_SetString(PyExc_ValueError, "expm_rows: bad sizes or parameters");
        goto done;
    }
    {
        /* the coefficient matrix is blocks x q with q = max(2, isqrt(degree + 1)) */
        int q = 2;
        while ((long long)(q + 1) * (q + 1) <= degree + 1) q++;
        size_t coefs = (size_t)coef.len / sizeof(double);
        p.q = q;
        p.blocks = (int)(coefs / (size_t)q);
        if ((size_t)p.blocks * q != coefs || (size_t)p.blocks * q < (size_t)degree + 1) {
            PyErr_SetString(PyExc_ValueError, "expm_rows: coefficients do not match degree");
            goto done;
        }
    }
    {
        const long long *lane = lanes.buf;
        size_t nlanes = (size_t)lanes.len / sizeof(long long);
        for (size_t i = 0; i < nlanes; i++) {
            if (lane[i] < 0 || (size_t)lane[i] >= count) {
                PyErr_SetString(PyExc_IndexError, "expm_rows: lane out of range");
                goto done;
            }
        }
        Work k;
        double *arena = NULL;
        int err = 0;
        if (alloc_work(&p, &src, &k, &arena)) {
            PyErr_NoMemory();
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        for (size_t start = 0; start < nlanes && !err; start += W) {
            int used = (int)(nlanes - start < W ? nlanes - start : W);
            long long group[W];
            for (int w = 0; w < W; w++) group[w] = lane[start + (w < used ? w : used - 1)];
            err = run_group(&p, &src, group, used, row, out.buf, &k);
        }
        Py_END_ALLOW_THREADS
        free(arena);
        free(k.powers);
        if (err == 1) {
            PyErr_SetString(PyExc_ValueError,
                            "expm_metzler needs non-negative off-diagonal entries");
            goto done;
        }
        if (err == 2) {
            PyErr_SetString(PyExc_ValueError,
                            reward ? "the reward rows of an augmented generator must be zero"
                                   : "the rows of the absorbing states must be zero");
            goto done;
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&g);
    PyBuffer_Release(&out);
    PyBuffer_Release(&lanes);
    PyBuffer_Release(&coef);
    if (gather.obj) PyBuffer_Release(&gather);
    if (moves.obj) PyBuffer_Release(&moves);
    if (scale.obj) PyBuffer_Release(&scale);
    if (extra.obj) PyBuffer_Release(&extra);
    if (start.obj) PyBuffer_Release(&start);
    return result;
}

static PyMethodDef methods[] = {
    {"expm_rows", expm_rows, METH_VARARGS, doc_expm_rows},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_metzler",
    "Compiled kernel of planner.core.markov.expm (see the C source's header).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__metzler(void) { return PyModule_Create(&module); }
