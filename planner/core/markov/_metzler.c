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

/* W doubles as one value: GCC's vector extension compiles each operation to one AVX-512
 * instruction, two AVX2 or four SSE2 ones, whatever the clone. VA: a slot of the work
 * buffers (64-byte aligned); VU: any W doubles. */
typedef double vd __attribute__((vector_size(W * sizeof(double))));
typedef double vd_unaligned __attribute__((vector_size(W * sizeof(double)), aligned(8)));
typedef long long vl __attribute__((vector_size(W * sizeof(long long)))); /* masks */
#define VA(ptr) (*(vd *)(ptr))
#define VU(ptr) ((vd)(*(const vd_unaligned *)(ptr)))
static const vd ZERO = {0};
#define PRAGMA(x) _Pragma(#x)
#define UNROLL PRAGMA(GCC unroll 16)

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
 * over (row, to) (mode 2); `gather` picks the job's m states of the base's, where an index
 * size + c among its special states is a Van Loan reward column read from the extra column c
 * (each transient row's value there; the state's own row is zero); every entry is
 * multiplied by the lane's `scale` (a mission in hours). So the engine's four loss chains
 * are read from one generator stack, without four copies of it. The base itself may come as
 * each lane's transition rates and the cell of each (`cells`), the matrix built per lane in
 * the work buffer: no stack of dense generators is written at all. */
enum { MOVE = 0, ADD = 1, ASSIGN = 2 };
typedef struct {
    const double *g;         /* count x size x size, or (with `cells`) count x transitions */
    int size;
    const long long *cells;  /* transitions: the flat cell (row size + column) of each, or NULL */
    int transitions;
    const long long *gather; /* m entries, or NULL: all `size` states */
    const long long *moves;  /* move_count x 4, or NULL */
    int move_count;
    const double *scale;     /* one per lane, or NULL */
    const double *extra;     /* count x size x extra_columns, or NULL */
    int extra_columns;
    const double *start;     /* count x m: each lane's starting distribution, or NULL */
    int moves_touch_specials; /* a move's row is a special state of the job */
    int moves_in_job;        /* gathered, but the moves name the job's own states: the
                                gather keeps the base's first n states in place and every
                                move stays among them (or reads `extra`), so the moves can
                                be applied on the interleaved load, without a copy */
} Source;

/* A matrix of W lanes is its n transient rows: M[(i * m + j) * W + w]. */
typedef struct {
    double **powers; /* q + 1 powers of X (0 unused: the identity) */
    double *acc, *tmp, *f, *g;
    double *v, *u; /* a row being formed (m x W), and n x W scratch */
    double *edited; /* W x size x size: the lanes' edited matrices (Source with edits) */
    double *dense;  /* W x size x size: the lanes' matrices built from their transitions */
    double *start;  /* m x W: the lanes' starting distributions (Source with a start) */
} Work;

static size_t msize(const Plan *p) { return (size_t)p->n * p->m * W; }

/* Lane `lane`'s base matrix (`size` x `size`): g's, or built from its transitions' rates
 * (`cells`): each added into its cell in transition order, as planner.core.markov.
 * generator's NumPy fill sums the transitions that share a cell. The diagonal is left zero:
 * the load takes every exit rate from the row's off-diagonal entries. */
static const double *lane_matrix(const Source *src, long long lane, int w, Work *k) {
    const size_t big = (size_t)src->size;
    if (!src->cells) return src->g + (size_t)lane * big * big;
    double *dense = k->dense + (size_t)w * big * big;
    const double *rates = src->g + (size_t)lane * (size_t)src->transitions;
    /* the work buffer starts zeroed and only the transitions' cells are ever written: clear
     * those, then add */
    for (int t = 0; t < src->transitions; t++) dense[src->cells[t]] = 0.0;
    for (int t = 0; t < src->transitions; t++) dense[src->cells[t]] += rates[t];
    return dense;
}

/* Lane `lane`'s base matrix edited by the moves, then gathered (m x m): for jobs whose moves
 * the interleaved load cannot apply (moves with a gather). The scale is applied later. */
static const double *edited_copy(const Plan *p, const Source *src, const double *base,
                                 long long lane, int w, Work *k) {
    const size_t big = (size_t)src->size;
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
    for (int i = 0; i < p->m; i++) {
        const long long gi = src->gather[i];
        for (int j = 0; j < p->m; j++) {
            const long long gj = src->gather[j];
            /* a state past the base's is a reward column of `extra`, with a zero row */
            job[i * p->m + j] = gi >= (long long)big ? 0.0
                                : gj < (long long)big
                                    ? copy[gi * big + gj]
                                    : extra[gi * src->extra_columns + (gj - (long long)big)];
        }
    }
    return job;
}

/* The per-group kernel for each common size (m states, the last one special: every chain of
 * the engine up to parity 5; the going-on chain's m - 4 states and four reward columns up to
 * parity 5), and for any size. */
#define KM 3
#define KN 2
#define SUFFIX _3
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 4
#define KN 3
#define SUFFIX _4
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 5
#define KN 4
#define SUFFIX _5
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 6
#define KN 5
#define SUFFIX _6
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 7
#define KN 6
#define SUFFIX _7
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 8
#define KN 7
#define SUFFIX _8
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 9
#define KN 8
#define SUFFIX _9
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 10
#define KN 9
#define SUFFIX _10
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 11
#define KN 10
#define SUFFIX _11
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM 12
#define KN 11
#define SUFFIX _12
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

/* the going-on chain of parity 1: its 3 states and four reward columns */
#define KM 7
#define KN 3
#define SUFFIX _7_4
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

/* the going-on chain of parity 2: its 5 states and four reward columns */
#define KM 9
#define KN 5
#define SUFFIX _9_4
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

/* the going-on chain of parity 3: its 7 states and four reward columns */
#define KM 11
#define KN 7
#define SUFFIX _11_4
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

/* the going-on chain of parity 4: its 9 states and four reward columns */
#define KM 13
#define KN 9
#define SUFFIX _13_4
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

/* the going-on chain of parity 5: its 11 states and four reward columns */
#define KM 15
#define KN 11
#define SUFFIX _15_4
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

#define KM (p->m)
#define KN (p->n)
#define SUFFIX _any
#include "_metzler_body.h"
#undef KM
#undef KN
#undef SUFFIX

typedef int (*RunGroup)(const Plan *, const Source *, const long long *, int, int, double *,
                        Work *);

/* The kernel compiled for the job's size, or the any-size one. */
static RunGroup run_group_for(const Plan *p) {
    static const RunGroup sized[] = {
        NULL,        NULL,        NULL,         run_group_3,  run_group_4,
        run_group_5, run_group_6, run_group_7,  run_group_8,  run_group_9,
        run_group_10, run_group_11, run_group_12,
    };
    static const RunGroup sized_4[] = {
        run_group_7_4, run_group_9_4, run_group_11_4, run_group_13_4, run_group_15_4,
    };
    if (p->a == 1 && p->m >= 3 && p->m <= 12) return sized[p->m];
    if (p->a == 4 && p->m >= 7 && p->m <= 15 && p->m % 2) return sized_4[(p->m - 7) / 2];
    return run_group_any;
}

static int alloc_work(const Plan *p, const Source *src, Work *k, double **arena) {
    const size_t ms = msize(p);
    size_t row_space = (size_t)p->m * W; /* also n x W scratch: n < m */
    size_t edited = (size_t)W * ((size_t)src->size * src->size + (size_t)p->m * p->m);
    size_t dense = src->cells ? (size_t)W * src->size * src->size : 0;
    size_t total = ((size_t)p->q + 1 + 4) * ms + 3 * row_space + edited + dense;
    /* 64-byte aligned, so that every lane group's slot is one aligned vector */
    size_t bytes = (total * sizeof(double) + 63) / 64 * 64;
    double *mem = aligned_alloc(64, bytes);
    if (mem) memset(mem, 0, bytes);
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
    k->dense = k->edited + edited;
    k->powers = powers;
    *arena = mem;
    return 0;
}

static const char doc_expm_rows[] =
    "expm_rows(g, out, lanes, row, specials, reward, degree, theta, conserve_every, coef,\n"
    "          gather, moves, scale, extra, start[, cells, size])\n"
    "--\n\n"
    "Row `row` of exp(G[lane]) into out[lane] for each lane of `lanes` (int64), where G is\n"
    "g[lane] (float64, (count, size, size), C order) edited by `moves` (int64 (e, 4): row,\n"
    "from, to, mode 0 move / 1 add / 2 assign; from >= size: column from - size of\n"
    "extra[lane], float64 (count, size, columns) or None), restricted to the states\n"
    "`gather` (int64 (m,) or None; with `reward`, a special state size + c is the reward\n"
    "column c of extra) and\n"
    "(with `start`, float64 (count, m) or None: start[lane] exp(G) instead of the row) and\n"
    "multiplied by scale[lane] (float64 (count,) or None). G's off-diagonal entries must be\n"
    ">= 0 and its last `specials` rows zero; out: writable float64 (count, m); coef: float64\n"
    "(blocks, q) Taylor coefficients 1 / (b q + i)! covering `degree`. Raises ValueError on a\n"
    "negative off-diagonal entry or a special row that is not zero. With `cells` (int64\n"
    "(transitions,), each a flat off-diagonal cell of a size x size matrix), g holds each\n"
    "lane's transition rates instead (float64 (count, transitions)), added into their cells\n"
    "in order. Releases the GIL.";

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
    Py_buffer start = {0}, cells = {0};
    PyObject *gather_in, *moves_in, *scale_in, *extra_in, *start_in, *cells_in = Py_None;
    int row, specials, reward, degree, conserve_every, cells_size = 0;
    double theta;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*w*y*iiiidiy*OOOOO|Oi", &g, &out, &lanes, &row, &specials,
                          &reward, &degree, &theta, &conserve_every, &coef, &gather_in,
                          &moves_in, &scale_in, &extra_in, &start_in, &cells_in, &cells_size))
        return NULL;
    PyObject *result = NULL;
    Plan p;
    Source src = {0};
    Py_ssize_t gathered, move_items, scales, extras, starts, transitions;
    if (optional_buffer(cells_in, &cells, sizeof(long long), &transitions) < 0 ||
        optional_buffer(gather_in, &gather, sizeof(long long), &gathered) < 0 ||
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
        /* out holds count x m, g count x size^2 (or count x transitions, with `cells`):
         * m = size unless gathered */
        if (transitions) {
            size = cells_size > 0 ? (size_t)cells_size : 0;
            m = gathered ? (size_t)gathered : size;
            count = m ? outs / m : 0;
            if (gs != count * (size_t)transitions) size = 0; /* refused below */
            for (Py_ssize_t t = 0; t < transitions && size; t++) {
                const long long cell = ((const long long *)cells.buf)[t];
                /* a cell of the matrix, off its diagonal */
                if (cell < 0 || (size_t)cell >= size * size || cell % (long long)(size + 1) == 0)
                    size = 0;
            }
        } else if (gathered) {
            m = (size_t)gathered;
            count = outs / m;
            size = 0;
            while ((size + 1) * (size + 1) * count <= gs) size++;
        } else {
            size = gs / outs;
            m = size;
            count = size ? outs / size : 0;
        }
        if (!size || !count || outs != count * m ||
            gs != count * (transitions ? (size_t)transitions : size * size) ||
            (scales && (size_t)scales != count) || (starts && (size_t)starts != count * m)) {
            PyErr_SetString(PyExc_ValueError, "expm_rows: g, out and scale do not match");
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
    for (Py_ssize_t i = 0; i < gathered; i++) {
        /* a special state may be a reward column of `extra` (size + its column) */
        long long state = ((const long long *)gather.buf)[i];
        int special = i >= (Py_ssize_t)m - specials && reward;
        size_t top = size + (special ? (size_t)src.extra_columns : 0);
        if (state < 0 || (size_t)state >= top) {
            PyErr_SetString(PyExc_IndexError, "expm_rows: gathered state out of range");
            goto done;
        }
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
    src.cells = transitions ? cells.buf : NULL;
    src.transitions = (int)transitions;
    src.gather = gathered ? gather.buf : NULL;
    src.moves = move_items ? moves.buf : NULL;
    src.move_count = (int)(move_items / 4);
    src.scale = scales ? scale.buf : NULL;
    src.start = starts ? start.buf : NULL;
    for (int e = 0; e < src.move_count; e++)
        src.moves_touch_specials |= src.moves[4 * e] >= (long long)m - specials;
    if (gathered && src.moves) {
        const long long kept = (long long)m - specials, *gathered_states = gather.buf;
        int in_job = kept > 0;
        for (long long i = 0; i < kept; i++) in_job &= gathered_states[i] == i;
        for (int e = 0; e < src.move_count; e++) {
            const long long *mv = src.moves + 4 * e;
            in_job &= mv[0] < kept && mv[2] < kept && (mv[1] < kept || mv[1] >= (long long)size);
        }
        src.moves_in_job = in_job;
    }
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
        RunGroup run_group = run_group_for(&p);
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
    if (cells.obj) PyBuffer_Release(&cells);
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
