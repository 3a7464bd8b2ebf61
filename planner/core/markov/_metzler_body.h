/* The per-group kernel, compiled once for each common size (rows of m = KM entries, KN of
 * them transient, one special state) and once for any size: with the sizes known to the
 * compiler every loop over a row is unrolled and a row's accumulators stay in registers.
 * Included by _metzler.c, which defines KM, KN and SUFFIX (KM and KN may be expressions
 * of the plan `p` for the any-size version). */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define FN(name) CAT(name, SUFFIX)

/* Row i of C = A B: C[i][j] = sum_{l < n} A[i][l] B[l][j], plus A[i][j] d_B for the
 * specials' columns j >= n (d_B: B's specials' diagonal per lane; NULL: 1). */
static inline __attribute__((always_inline)) void FN(row_product)(
    const Plan *p, const double *restrict ai, const double *restrict b,
    const double *restrict d_b, double *restrict ci) {
    (void)p;
    vd acc[KM];
    UNROLL for (int j = 0; j < KM; j++) acc[j] = j < KN ? ZERO : (d_b ? VA(ai + j * W) * VU(d_b) : VA(ai + j * W));
    for (int l = 0; l < KN; l++) {
        const vd x = VA(ai + (size_t)l * W);
        const double *y = b + (size_t)l * KM * W;
        UNROLL for (int j = 0; j < KM; j++) acc[j] += x * VA(y + j * W);
    }
    UNROLL for (int j = 0; j < KM; j++) VA(ci + j * W) = acc[j];
}

/* C = A B (KN transient rows each; C must not be A or B). */
static inline __attribute__((always_inline)) void FN(product)(const Plan *p, const double *A,
                                                              const double *B,
                                                              const double *d_b, double *C) {
    const size_t row = (size_t)KM * W;
    for (int i = 0; i < KN; i++) FN(row_product)(p, A + i * row, B, d_b, C + i * row);
}

/* Y += c X over the KN x KM x W doubles of a matrix. */
static inline __attribute__((always_inline)) void FN(axpy)(const Plan *p, double c,
                                                           const double *restrict x,
                                                           double *restrict y) {
    (void)p;
    const vd factor = ZERO + c;
    for (size_t e = 0; e < (size_t)KN * KM * W; e += W) VA(y + e) += factor * VA(x + e);
}

/* The rebuilt diagonal: F_ii = 1 - (off-diagonal mass of row i) where that mass <= 1/2
 * (the reward columns hold integrals, not probability: not counted). */
static inline __attribute__((always_inline)) void FN(conserve)(const Plan *p, double *F) {
    const int mass_columns = p->reward ? KN : KM;
    for (int i = 0; i < KN; i++) {
        const double *row = F + (size_t)i * KM * W;
        vd mass = ZERO;
        UNROLL for (int j = 0; j < KM; j++) if (j != i && j < mass_columns) mass += VA(row + j * W);
        double *d = F + ((size_t)i * KM + i) * W;
        /* where the mass is at most 1/2: 1 - mass; elsewhere the product's value */
        const vl keep = mass <= 0.5, rebuilt = (vl)(1.0 - mass), product = (vl)VA(d);
        VA(d) = (vd)((rebuilt & keep) | (product & ~keep));
    }
}

/* The W lanes' matrices of the job, each shifted and scaled, as X into powers[1], with each
 * lane's shift c h and squarings s. `bases[w]` is lane w's matrix (`size` x `size`,
 * row-major) and `gather` the job's states in it (NULL: all); `moves` are applied to the
 * transient rows here, `scale` (one factor per lane, or NULL) multiplies every entry.
 * Returns 0, or 1 for a negative or non-finite off-diagonal entry, 2 for a special row
 * that is not zero. */
static inline __attribute__((always_inline)) int FN(load_group)(
    const Plan *p, const double *const *bases, int size, const long long *gather,
    const long long *moves, int move_count, const double *const *extras, int extra_columns,
    const double *scale_of_lane, Work *k, double *shift_scaled, int *steps) {
    const int kept = p->reward ? KN : KM;
    double *x = k->powers[1];
    int bad = 0;
    /* the job's special rows (absorbing or reward states) must be zero off the diagonal; a
     * gathered state past the base's, a reward column of `extra`, has no row */
    for (int w = 0; w < W; w++)
        for (int i = KN; i < KM; i++) {
            const long long gi = gather ? gather[i] : i;
            if (gi >= size) continue;
            for (int j = 0; j < KM; j++) {
                const long long gj = gather ? gather[j] : j;
                const double v = gj < size ? bases[w][gi * size + gj]
                                           : extras[w][gi * extra_columns + (gj - size)];
                bad |= (j != i) & (v != 0.0);
            }
        }
    if (bad) return 2;
    /* the transient rows, interleaved: lane w's entry (i, j) at x[(i m + j) W + w] */
    if (gather) {
        for (int i = 0; i < KN; i++)
            for (int j = 0; j < KM; j++) {
                double *cell = x + ((size_t)i * KM + j) * W;
                const long long gi = gather[i], gj = gather[j];
                if (gj < size) {
                    const size_t source = (size_t)gi * size + (size_t)gj;
                    for (int w = 0; w < W; w++) cell[w] = bases[w][source];
                } else { /* a reward column of `extra` */
                    const size_t source = (size_t)gi * extra_columns + (size_t)(gj - size);
                    for (int w = 0; w < W; w++) cell[w] = extras[w][source];
                }
            }
    } else {
        for (int i = 0; i < KN; i++)
            for (int j = 0; j < KM; j++) {
                const size_t source = (size_t)i * size + (size_t)j;
                double *cell = x + ((size_t)i * KM + j) * W;
                for (int w = 0; w < W; w++) cell[w] = bases[w][source];
            }
    }
    for (int e = 0; e < move_count; e++) { /* (row, from, to, mode), rows < n (checked);
                                               with a gather, the job's own first states */
        const long long *mv = moves + 4 * e;
        double value[W];
        double *from = mv[1] < size ? x + ((size_t)mv[0] * KM + mv[1]) * W : NULL;
        for (int w = 0; w < W; w++)
            value[w] = from ? from[w] : extras[w][mv[0] * extra_columns + (mv[1] - size)];
        double *to = x + ((size_t)mv[0] * KM + mv[2]) * W;
        for (int w = 0; w < W; w++) to[w] = mv[3] == ASSIGN ? value[w] : to[w] + value[w];
        if (mv[3] == MOVE && from)
            for (int w = 0; w < W; w++) from[w] = 0.0;
    }
    if (scale_of_lane) {
        const vd factor = VU(scale_of_lane);
        for (size_t e = 0; e < (size_t)KN * KM * W; e += W) VA(x + e) *= factor;
    }
    double c[W] = {0}, rewards_max[W] = {0};
    double *exits_of = k->u; /* n x W: each row's exit rate, kept for the diagonal */
    for (int i = 0; i < KN; i++) {
        double *row = x + (size_t)i * KM * W;
        double rewards[W] = {0}, exits[W] = {0};
        for (int w = 0; w < W; w++) row[i * W + w] = 0.0;
        for (int j = 0; j < KM; j++) {
            const int reward = j >= kept;
            for (int w = 0; w < W; w++) {
                const double v = row[j * W + w];
                bad |= !(v >= 0.0) | (v == INFINITY);
                exits[w] += reward ? 0.0 : v;
                rewards[w] += reward ? v : 0.0;
            }
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
    const vd factor = VU(scale), shift = VU(c);
    for (int i = 0; i < KN; i++) {
        double *row = x + (size_t)i * KM * W;
        UNROLL for (int j = 0; j < KM; j++) VA(row + j * W) *= factor;
        VA(row + i * W) = (shift - VA(exits_of + i * W)) * factor;
    }
    return 0;
}

/* exp(-c h) sum_{j <= degree} X^j / j! into k->f (Paterson-Stockmeyer, positive terms). */
static inline __attribute__((always_inline)) void FN(taylor)(const Plan *p, Work *k,
                                                             const double *shift_scaled) {
    const int q = p->q;
    double diag_q[W]; /* the specials' diagonal of X^q: (c h)^q */
    /* X^j = X^(j-1) X: X's specials' diagonal is c h */
    for (int j = 2; j <= q; j++)
        FN(product)(p, k->powers[j - 1], k->powers[1], shift_scaled, k->powers[j]);
    for (int w = 0; w < W; w++) {
        double power = 1.0;
        for (int j = 0; j < q; j++) power *= shift_scaled[w];
        diag_q[w] = power;
    }
    /* Horner over the blocks B_b = sum_{i < q} coef[b][i] X^i: acc = acc X^q + B_b */
    double *acc = k->acc, *tmp = k->tmp;
    for (int b = p->blocks - 1; b >= 0; b--) {
        if (b == p->blocks - 1) {
            memset(acc, 0, (size_t)KN * KM * W * sizeof(double));
        } else {
            FN(product)(p, acc, k->powers[q], diag_q, tmp);
            double *swap = acc;
            acc = tmp;
            tmp = swap;
        }
        const double *coef = p->coef + (size_t)b * q;
        for (int i = 0; i < KN; i++) VA(acc + ((size_t)i * KM + i) * W) += coef[0]; /* X^0 */
        for (int i = 1; i < q; i++) FN(axpy)(p, coef[i], k->powers[i], acc);
    }
    double factors[W];
    for (int w = 0; w < W; w++) factors[w] = exp(-shift_scaled[w]);
    const vd factor = VU(factors);
    for (size_t e = 0; e < (size_t)KN * KM * W; e += W) VA(acc + e) *= factor;
    /* acc becomes f; the old f becomes the spare */
    k->tmp = tmp;
    k->acc = k->f;
    k->f = acc;
}

/* One lane group: lanes[0..W) index G; out[lane] gets row `row` of exp(G[lane]) (or, from a
 * starting distribution, start[lane] exp(G[lane])). */
MULTIVERSION
static int FN(run_group)(const Plan *p, const Source *src, const long long *lanes, int used,
                         int row, double *out, Work *k) {
    double shift_scaled[W], scale[W];
    const double *lane_g[W], *lane_extra[W];
    int steps[W], top = 0;
    /* moves on a gathered job (unless they name its own states), or on a special row:
     * applied to a copy of each matrix */
    int copies =
        src->moves && ((src->gather && !src->moves_in_job) || src->moves_touch_specials);
    for (int w = 0; w < W; w++) {
        long long lane = lanes[w < used ? w : used - 1];
        const size_t big = (size_t)src->size;
        const double *base = lane_matrix(src, lane, w, k);
        lane_g[w] = copies ? edited_copy(p, src, base, lane, w, k) : base;
        scale[w] = src->scale ? src->scale[lane] : 1.0;
        lane_extra[w] =
            src->extra ? src->extra + (size_t)lane * big * src->extra_columns : NULL;
    }
    const double *factor = src->scale ? scale : NULL;
    int err = copies ? FN(load_group)(p, lane_g, KM, NULL, NULL, 0, NULL, 0, factor, k,
                                      shift_scaled, steps)
                     : FN(load_group)(p, lane_g, src->size, src->gather, src->moves,
                                      src->move_count, lane_extra, src->extra_columns, factor,
                                      k, shift_scaled, steps);
    if (err) return err;
    for (int w = 0; w < W; w++)
        if (steps[w] - 1 > top) top = steps[w] - 1;
    if (src->start)
        for (int w = 0; w < W; w++) {
            const double *pi = src->start + (size_t)lanes[w < used ? w : used - 1] * KM;
            for (int j = 0; j < KM; j++) k->start[(size_t)j * W + w] = pi[j];
        }
    FN(taylor)(p, k, shift_scaled);
    FN(conserve)(p, k->f);
    const size_t row_len = (size_t)KM * W;
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
                FN(row_product)(p, k->start, k->f, NULL, k->u);
                source = k->u;
            }
            if (level >= 0) {
                FN(row_product)(p, source, k->f, NULL, k->v);
                source = k->v;
            }
            for (int w = 0; w < used; w++) {
                if (!((steps[w] == 0 && level == -1) || (steps[w] > 0 && steps[w] - 1 == level)))
                    continue;
                double *dest = out + (size_t)lanes[w] * KM;
                for (int j = 0; j < KM; j++) dest[j] = source[(size_t)j * W + w];
            }
        }
        if (level < 0 || level == top) continue;
        FN(product)(p, k->f, k->f, NULL, k->g);
        double *swap = k->f;
        k->f = k->g;
        k->g = swap;
        if (level % p->conserve_every == p->conserve_every - 1) FN(conserve)(p, k->f);
    }
    return 0;
}

#undef FN
#undef CAT
#undef CAT_
