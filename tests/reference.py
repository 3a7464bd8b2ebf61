"""The independent high-precision reference every engine test compares with.

The n+k chain is written here from the paper's text (NS3574, "Probability of data loss";
the n+k generalisation is in planner.core.markov.chain's docstring), not from planner's code:
states (f, l) with f failed drives and l in {0, 1} an undiscovered latent defect,
f + l <= k, ordered by f then l, then the loss state;

* operational failure of a drive without the defect (f, l) -> (f + 1, l), or loss when
  f + 1 + l > k, at (N - f - l) λOp;
* operational failure of the drive holding the defect (f, 1) -> (f + 1, 0) at λOp: the
  defect goes with the drive (issue 20; NS3574 leaves this move out, "only n drives are
  at risk", which lets a shorter scrub raise P(loss) when defects are frequent);
* latent defect (f, 0) -> (f, 1) at (N - f) λLd while f < k (never the last event);
* rebuild (f, l) -> (f - 1, l) at min(f, streams) μOp (one rebuild at a time unless
  ``streams`` says otherwise);
* scrub (0, 1) -> (0, 0) at μScrub;

each diagonal entry minus its row's off-diagonal sum. Everything is in mpmath at
:data:`DPS` digits: P(loss by T) is the (pristine, loss) entry of exp(Q T), by mpmath's
scaling and squaring (:func:`p_loss`; :func:`expm` takes mpmath.expm's steps on lists of
numbers) or by eigendecomposition (:func:`p_loss_eig`), and the MTTDL solves ``-A x = 1``
on the transient states by mpmath's LU (:func:`mttdl`).

At the end, the survival reference of ``planner fit``'s tests: the censored Weibull
maximum-likelihood fit and its observed information (:func:`weibull_censored_mle`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import mpmath
import numpy as np

DPS = 60
"""Working precision (decimal digits); callers may raise it with ``mpmath.workdps``."""

HOURS_PER_YEAR = 8760

F = TypeVar("F", bound=Callable[..., Any])


def _kept(function: F) -> F:
    """``function`` that keeps each result by its arguments and the working precision.

    The engine tests ask for one chain many times (each kernel path, each figure of a
    layout, a case and its stack); an mpmath exponential costs up to a tenth of a second.
    Results are mpmath numbers (immutable) or dicts of them (a copy each call).
    """
    kept = functools.lru_cache(maxsize=4096)(
        lambda dps, args, options: function(*args, **dict(options))
    )

    @functools.wraps(function)
    def wrapper(*args: Any, **options: Any) -> Any:
        key = tuple(sorted(options.items()))
        try:
            hash((args, key))
        except TypeError:  # an array argument: computed afresh
            return function(*args, **options)
        result = kept(mpmath.mp.dps, args, key)
        return dict(result) if isinstance(result, dict) else result

    return cast(F, wrapper)


def expm(a: mpmath.matrix) -> mpmath.matrix:
    """exp(A) by mpmath.expm's own method, its products taken on lists by mpmath.fdot.

    The Taylor series of A / 2^j with the working precision raised by 10 + 2 j bits, then
    j squarings, exactly as ``mpmath.expm(A)`` (method "taylor") takes them: the same
    operations in the same order, so the same digits (a test checks that they are equal).
    mpmath's own matrix product reads and writes every entry through its sparse ``matrix``
    type, which costs more than the arithmetic; rows of mpf numbers and ``fdot`` on them
    take a third to a half of its time.
    """
    ctx = mpmath.mp
    n = a.rows
    prec = ctx.prec
    halvings = int(max(1, ctx.mag(ctx.mnorm(a, "inf")))) + int(0.5 * prec**0.5)
    try:
        ctx.prec += 10 + 2 * halvings
        tol = +ctx.eps
        scaled = [[a[i, j] / 2**halvings for j in range(n)] for i in range(n)]

        def product(x: list[list[Any]], y: list[list[Any]]) -> list[list[Any]]:
            columns = list(zip(*y, strict=True))
            return [[ctx.fdot(row, column) for column in columns] for row in x]

        term = scaled
        total = [[(1 if i == j else 0) + scaled[i][j] for j in range(n)] for i in range(n)]
        k = 2
        while True:
            inverse = 1 / ctx.mpf(k)
            term = product(term, [[v * inverse for v in row] for row in scaled])
            if max(ctx.fsum(abs(v) for v in row) for row in term) < tol:
                break
            total = [
                [u + v for u, v in zip(r, s, strict=True)] for r, s in zip(total, term, strict=True)
            ]
            k += 1
        for _ in range(halvings):
            total = product(total, total)
    finally:
        ctx.prec = prec
    return mpmath.matrix([[+v for v in row] for row in total])


def rate_args(rates: Any) -> tuple[float, float, float, float]:
    """``rates``' lambda_op, lambda_ld, rebuild and scrub hours, in this module's order."""
    return (
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
    )


def states(parity: int) -> list[tuple[int, int]]:
    """The transient states (f, l) in the paper's order (Figures 1 and 4 for k = 1, 2)."""
    return [(f, lat) for f in range(parity + 1) for lat in (0, 1) if f + lat <= parity]


def generator(
    parity: int,
    drives: int,
    lop: float | mpmath.mpf,
    lld: float | mpmath.mpf,
    mu_op: float | mpmath.mpf,
    mu_scrub: float | mpmath.mpf,
    streams: int = 1,
    share: float | mpmath.mpf = 1,
    survivors_read: bool = False,
) -> mpmath.matrix:
    """Q (per hour) of the n+k chain at the current mpmath precision, loss state last.

    Args:
        parity: k; drives: N; lop, lld: failure and defect rates of one drive (1/h);
        mu_op, mu_scrub: rebuild and scrub rates (1/h); streams: rebuilds at once;
        share: a declustered pool's σ (issue 20): the failure out of (k - 1, 1) loses
            sectors with probability σ and otherwise goes to (k, 0).
        survivors_read: ``lld`` is the mean of a workload's reads over the N drives, and
            with f drives down the N - f survivors read them all: each meets
            N / (N - f) x ``lld`` (planner's chain keeps ``lld``: docs/drives.md).
    """
    lop, lld = mpmath.mpf(lop), mpmath.mpf(lld)
    mu_op, mu_scrub = mpmath.mpf(mu_op), mpmath.mpf(mu_scrub)
    index = {s: i for i, s in enumerate(states(parity))}
    loss = len(index)
    q = mpmath.zeros(loss + 1, loss + 1)
    for (f, lat), i in index.items():
        rate = (drives - f - lat) * lop
        if lat == 1 and f + 1 + lat > parity:
            q[i, loss] += mpmath.mpf(share) * rate
            q[i, index[(parity, 0)]] += rate - mpmath.mpf(share) * rate
        else:
            q[i, loss if f + 1 + lat > parity else index[(f + 1, lat)]] += rate
        if lat == 1:  # the holder fails, its defect with it
            q[i, index[(f + 1, 0)]] += lop
        if lat == 0 and f < parity:
            q[i, index[(f, 1)]] += (drives if survivors_read else drives - f) * lld
        if f > 0:
            q[i, index[(f - 1, lat)]] += min(f, streams) * mu_op
        if (f, lat) == (0, 1):
            q[i, index[(0, 0)]] += mu_scrub
    for i in range(loss + 1):
        q[i, i] = -mpmath.fsum(q[i, j] for j in range(loss + 1) if j != i)
    return q


def _q(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild: float,
    scrub: float,
    streams: int | None = 1,
    share: float = 1.0,
    survivors_read: bool = False,
) -> object:
    at_once = parity if streams is None else streams  # None: every failed drive (f <= k)
    mu_op, mu_scrub = 1 / mpmath.mpf(rebuild), 1 / mpmath.mpf(scrub)
    return generator(parity, drives, lop, lld, mu_op, mu_scrub, at_once, share, survivors_read)


@_kept
def p_loss(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    hours: float,
    streams: int | None = 1,
    share: float = 1.0,
    survivors_read: bool = False,
) -> mpmath.mpf:
    """P(one group loses data within ``hours``), starting pristine: exp(Q T)[0, loss]."""
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q = _q(parity, drives, lop, lld, rebuild_hours, scrub_hours, streams, share, survivors_read)
        return +expm(q * mpmath.mpf(hours))[0, q.rows - 1]


@_kept
def p_loss_eig(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    hours: float,
    dps: int = 100,
) -> mpmath.mpf:
    """The same entry as :func:`p_loss` by V diag(exp(λ_i T)) V^-1 at ``dps`` digits."""
    with mpmath.workdps(dps):
        q = _q(parity, drives, lop, lld, rebuild_hours, scrub_hours)
        eigenvalues, vectors = mpmath.eig(q)
        inverse = mpmath.inverse(vectors)
        last = q.rows - 1
        terms = (
            vectors[0, i] * mpmath.exp(eigenvalues[i] * hours) * inverse[i, last]
            for i in range(q.rows)
        )
        return +mpmath.re(mpmath.fsum(terms))


def mttdl(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    streams: int | None = 1,
) -> mpmath.mpf:
    """Mean time to data loss from the pristine state (h): x[0] of ``-A x = 1``."""
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q = _q(parity, drives, lop, lld, rebuild_hours, scrub_hours, streams)
        size = q.rows - 1
        a = mpmath.matrix(size, size)
        for i in range(size):
            for j in range(size):
                a[i, j] = -q[i, j]
        x = mpmath.lu_solve(a, mpmath.matrix([1] * size))
        return +x[0]


def overlapping_failures(
    parity: int,
    drives: int,
    lop: float,
    rebuild_hours: float,
    hours: float,
    streams: int | None = 1,
) -> mpmath.mpf:
    """P(k + 1 drives down at once within ``hours``): the birth-death chain of failures.

    Written from the definition of P(group lost) in issue 20, not from planner: f = 0..k+1
    drives down, a failure f -> f + 1 at (N - f) lop, a rebuild f -> f - 1 at
    min(f, streams) / rebuild_hours (``streams`` None: every failed drive at once), absorbing
    at f = k + 1; latent defects play no part. The (0, k + 1) entry of exp(Q T).
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        lop, mu = mpmath.mpf(lop), 1 / mpmath.mpf(rebuild_hours)
        at_once = parity + 1 if streams is None else streams
        size = parity + 2
        q = mpmath.zeros(size, size)
        for f in range(parity + 1):
            q[f, f + 1] = (drives - f) * lop
            if f > 0:
                q[f, f - 1] = min(f, at_once) * mu
            q[f, f] = -(q[f, f + 1] + (q[f, f - 1] if f > 0 else 0))
        return +expm(q * mpmath.mpf(hours))[0, size - 1]


def aggregate(p_group: mpmath.mpf | float, groups: int) -> mpmath.mpf:
    """1 - (1 - p)^groups: an aggregate loses data when any of its groups does."""
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        return +(1 - (1 - mpmath.mpf(p_group)) ** groups)


def any_loss(p_losses: list[float]) -> mpmath.mpf:
    """1 - prod(1 - p_i): independent systems (a plan's tiers), at least one loses data.

    The product as written, with enough digits that the smallest p_i survives ``1 - p``.
    """
    smallest = min((p for p in p_losses if p > 0), default=1.0)
    digits = max(DPS, mpmath.mp.dps) + int(-math.log10(smallest)) + 20
    with mpmath.workdps(digits):
        survive = mpmath.mpf(1)
        for p in p_losses:
            survive *= 1 - mpmath.mpf(p)
        return +(1 - survive)


def relative_error(actual: float, expected: mpmath.mpf) -> mpmath.mpf:
    """``|actual - expected| / |expected|`` in mpmath (expected must not be 0)."""
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        return abs(mpmath.mpf(actual) - expected) / abs(expected)


def loss_split(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    hours: float,
) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(P(group lost), P(sectors lost)) within ``hours``, from a chain with two loss states.

    Written from the rule in the issue (11), not from planner: the move to loss out of a
    state with a latent defect (l = 1) loses sectors and goes to a state of its own, the
    last; the move out of a state without one (k + 1 failures) loses the group. The
    generator is built here from scratch with both absorbing states.
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q = _split_generator(parity, drives, lop, lld, rebuild_hours, scrub_hours)
        group, sectors = q.rows - 2, q.rows - 1
        exp = expm(q * mpmath.mpf(hours))
        return +exp[0, group], +exp[0, sectors]


def _split_generator(
    parity: int, drives: int, lop: float, lld: float, rebuild_hours: float, scrub_hours: float
) -> mpmath.matrix:
    """Q with two absorbing states, group lost then sectors lost (last); see loss_split."""
    lop, lld = mpmath.mpf(lop), mpmath.mpf(lld)
    mu_op, mu_scrub = 1 / mpmath.mpf(rebuild_hours), 1 / mpmath.mpf(scrub_hours)
    index = {s: i for i, s in enumerate(states(parity))}
    group, sectors = len(index), len(index) + 1
    q = mpmath.zeros(sectors + 1, sectors + 1)
    for (f, lat), i in index.items():
        lost = sectors if lat == 1 else group  # a latent defect among the events
        target = lost if f + 1 + lat > parity else index[(f + 1, lat)]
        q[i, target] += (drives - f - lat) * lop
        if lat == 1:  # the holder fails, its defect with it
            q[i, index[(f + 1, 0)]] += lop
        if lat == 0 and f < parity:
            q[i, index[(f, 1)]] += (drives - f) * lld
        if f > 0:
            q[i, index[(f - 1, lat)]] += mu_op
        if (f, lat) == (0, 1):
            q[i, index[(0, 0)]] += mu_scrub
    for i in range(sectors + 1):
        q[i, i] = -mpmath.fsum(q[i, j] for j in range(sectors + 1) if j != i)
    return q


def sector_share(
    parity: int, drives: int, lop: float, lld: float, rebuild_hours: float, scrub_hours: float
) -> mpmath.mpf:
    """The probability that the first loss, whenever it comes, loses sectors.

    The absorption probability into the sectors-lost state from the pristine one: solve
    ``-A x = r`` on the transient block A with r the rates into that state (mpmath LU).
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q = _split_generator(parity, drives, lop, lld, rebuild_hours, scrub_hours)
        n = q.rows - 2
        a = mpmath.matrix(n, n)
        r = mpmath.matrix(n, 1)
        for i in range(n):
            r[i] = q[i, n + 1]
            for j in range(n):
                a[i, j] = -q[i, j]
        return +mpmath.lu_solve(a, r)[0]


def expected_renewals(drives: int, failures_per_hour: float, hours: float) -> mpmath.mpf:
    """Expected failures of ``drives`` slots over ``hours``, each failed drive replaced.

    From the definition of a renewal process, not from a Poisson shortcut: the expected
    count of one slot is the renewal function ``sum_k P(S_k <= T)``, ``S_k`` the time of the
    k-th failure, a sum of k exponential lifetimes (an Erlang(k, lambda) time), whose CDF is
    the regularized lower incomplete gamma function P(k, lambda T). The sum stops when its
    terms fall below the working precision.
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        x = mpmath.mpf(failures_per_hour) * mpmath.mpf(hours)
        total, k = mpmath.mpf(0), 1
        while True:
            term = mpmath.gammainc(k, 0, x, regularized=True)
            total += term
            if k > x and term < mpmath.mpf(10) ** (-mpmath.mp.dps):
                break
            k += 1
        return +(drives * total)


def poisson_mean(mean: float) -> mpmath.mpf:
    """The mean of a Poisson law summed from its probabilities: sum_k k e^-m m^k / k!."""
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        m = mpmath.mpf(mean)
        return +mpmath.nsum(
            lambda k: k * mpmath.exp(-m) * m**k / mpmath.factorial(k), [0, mpmath.inf]
        )


# --- Issue 20: whole-group loss, sector losses and their count, each from a chain of its own.
# Written from the and the shared spec's words, not from planner's code.


def group_lost(
    parity: int,
    drives: int,
    lop: float,
    rebuild_hours: float,
    hours: float,
    streams: int | None = 1,
) -> mpmath.mpf:
    """P(k + 1 drives down at once within ``hours``): the birth-death chain f = 0 .. k + 1.

    A failure takes f to f + 1 at (N - f) λOp, a rebuild f to f - 1 at min(f, streams) μOp
    (None: every failed drive at once); f = k + 1 is absorbing. Latent defects play no
    part: a sector loss is written off and the group goes on.
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        lam, mu = mpmath.mpf(lop), 1 / mpmath.mpf(rebuild_hours)
        size = parity + 2
        q = mpmath.zeros(size, size)
        for f in range(parity + 1):
            q[f, f + 1] = (drives - f) * lam
            if f > 0:
                q[f, f - 1] = min(f, parity if streams is None else streams) * mu
            q[f, f] = -(q[f, f + 1] + (q[f, f - 1] if f > 0 else 0))
        return +expm(q * mpmath.mpf(hours))[0, size - 1]


def _going_on_generator(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    share: float,
    streams: int | None,
    *,
    sectors_absorb: bool,
) -> tuple[mpmath.matrix, int, mpmath.mpf]:
    """The chain in which a lost group is restored (to (0, 0)) and goes on.

    With ``sectors_absorb`` a sector loss goes to an absorbing state of its own (last);
    otherwise to (k, 0), stripes restored and the rebuild going on. A failure out of
    (k - 1, 1) loses sectors with probability ``share`` (a pool's stripe share σ) and
    otherwise goes to (k, 0). Returns Q, the index of (k - 1, 1) and its sector-loss rate.
    """
    lam, ld = mpmath.mpf(lop), mpmath.mpf(lld)
    mu, scrub = 1 / mpmath.mpf(rebuild_hours), 1 / mpmath.mpf(scrub_hours)
    at_once = parity if streams is None else streams
    index = {s: i for i, s in enumerate(states(parity))}
    size = len(index) + (1 if sectors_absorb else 0)
    q = mpmath.zeros(size, size)
    sector_rate = mpmath.mpf(0)
    for (f, lat), i in index.items():
        rate = (drives - f - lat) * lam
        if lat == 1 and f == parity - 1:  # one more failure meets the defect's stripe
            sector_rate = mpmath.mpf(share) * rate
            q[i, size - 1 if sectors_absorb else index[(parity, 0)]] += sector_rate
            q[i, index[(parity, 0)]] += rate - sector_rate
        elif f == parity:  # k + 1 failures: the group is restored and goes on
            q[i, index[(0, 0)]] += rate
        else:
            q[i, index[(f + 1, lat)]] += rate
        if lat == 1:  # the holder fails, its defect with it
            q[i, index[(f + 1, 0)]] += lam
        if lat == 0 and f < parity:
            q[i, index[(f, 1)]] += (drives - f) * ld
        if f > 0:
            q[i, index[(f - 1, lat)]] += min(f, at_once) * mu
        if (f, lat) == (0, 1):
            q[i, index[(0, 0)]] += scrub
    for i in range(size):
        q[i, i] = -mpmath.fsum(q[i, j] for j in range(size) if j != i)
    return q, index[(parity - 1, 1)], sector_rate


def sectors_lost(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    hours: float,
    share: float = 1.0,
    streams: int | None = 1,
) -> mpmath.mpf:
    """P(at least one sector-loss event within ``hours``), a lost group restored: exp(Q T)."""
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q, _, _ = _going_on_generator(
            parity, drives, lop, lld, rebuild_hours, scrub_hours, share, streams,
            sectors_absorb=True,
        )  # fmt: skip
        return +expm(q * mpmath.mpf(hours))[0, q.rows - 1]


def expected_sector_loss_events(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    hours: float,
    share: float = 1.0,
    streams: int | None = 1,
    method: str = "spectral",
) -> mpmath.mpf:
    """Mean number of sector-loss events within ``hours`` in the chain that goes on.

    The sector-loss rate times the expected time spent in (k - 1, 1):
    ``rate x integral_0^T exp(Q t)[0, j] dt``. ``method``: "spectral" integrates
    ``V diag(exp(λ_i t)) V^-1`` term by term in closed form (eigendecomposition at 60
    digits); "block" takes one matrix exponential of the block generator
    ``[[Q, e_j], [0, 0]]``, whose top-right column is ``integral_0^T exp(Q t) e_j dt``
    (C. F. Van Loan, "Computing integrals involving the matrix exponential", IEEE
    Transactions on Automatic Control 23(3), 1978): no eigenvectors and no quadrature
    nodes. mpmath.quad of ``exp(Q t)[0, j]`` agreed with both to 30 digits, at 150 times
    the CPU time of either (an exponential of Q at each of some 250 nodes).
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q, j, rate = _going_on_generator(
            parity, drives, lop, lld, rebuild_hours, scrub_hours, share, streams,
            sectors_absorb=False,
        )  # fmt: skip
        t = mpmath.mpf(hours)
        if method == "block":
            size = q.rows
            block = mpmath.zeros(size + 1, size + 1)
            for row in range(size):
                for column in range(size):
                    block[row, column] = q[row, column]
            block[j, size] = 1
            return +(rate * expm(block * t)[0, size])
        eigenvalues, vectors = mpmath.eig(q)
        inverse = mpmath.inverse(vectors)
        terms = []
        for i, value in enumerate(eigenvalues):
            # integral_0^T exp(λ t) dt, = T for the stationary eigenvalue (λ ~ 0)
            integral = (
                t if abs(value * t) < mpmath.mpf(10) ** (-40) else mpmath.expm1(value * t) / value
            )
            terms.append(vectors[0, i] * integral * inverse[i, j])
        return +(rate * mpmath.re(mpmath.fsum(terms)))


# Survival references for `planner fit` (docs/fit.md), written from the textbook likelihood
# of right-censored Weibull data (Lawless, "Statistical Models and Methods for Lifetime
# Data", 2nd ed. 2003, section 5.2), not from planner's or lifelines' code.


def weibull_censored_mle(hours: Any, failed: Any, steps: int = 50) -> tuple[Any, Any, Any, Any]:
    """The censored Weibull MLE of each row of ``hours`` (drives) and its standard errors.

    With ``d`` failures, the scale profiles out as ``scale^shape = sum(t^shape) / d``, and the
    shape solves the profile score ``d / shape + sum_failed ln t - d sum(t^shape ln t) /
    sum(t^shape) = 0`` (decreasing in the shape: one root), found here by bisection on
    log(shape) in [0.02, 50], every row at once. The standard errors are the square roots of
    the inverse observed information (the analytic second derivatives of the
    log-likelihood at the optimum). Rows are independent logs; each needs 2 failures.

    Returns:
        shape, scale (hours), the shape's and the scale's standard errors, one per row.
    """
    hours = np.atleast_2d(np.asarray(hours, dtype=float))
    failed = np.atleast_2d(np.asarray(failed, dtype=bool))
    unit = hours.mean(axis=1, keepdims=True)
    x = hours / unit  # the fit is the same on any clock; near 1 nothing overflows
    positive = x > 0
    log_x = np.log(np.where(positive, x, 1.0))
    d = failed.sum(axis=1)
    failed_log = (log_x * failed).sum(axis=1)

    def powers(shape: Any) -> Any:
        return np.where(positive, np.exp(shape[:, None] * log_x), 0.0)

    low, high = np.full(len(x), 0.02), np.full(len(x), 50.0)
    for _ in range(steps):
        mid = np.sqrt(low * high)
        xb = powers(mid)
        score = d / mid + failed_log - d * (xb * log_x).sum(axis=1) / xb.sum(axis=1)
        low, high = np.where(score > 0, mid, low), np.where(score > 0, high, mid)
    shape = np.sqrt(low * high)
    scale = (powers(shape).sum(axis=1) / d) ** (1 / shape)
    w = np.where(positive, log_x - np.log(scale)[:, None], 0.0)
    z = np.where(positive, np.exp(shape[:, None] * w), 0.0)  # (t / scale)^shape
    sz, szw, szww = z.sum(axis=1), (z * w).sum(axis=1), (z * w * w).sum(axis=1)
    h_bb = -d / shape**2 - szww
    h_ee = (d * shape - shape * sz - shape**2 * sz) / scale**2
    h_be = (-d + sz + shape * szw) / scale
    det = h_bb * h_ee - h_be**2
    se_shape, se_scale = np.sqrt(-h_ee / det), np.sqrt(-h_bb / det)
    u = unit[:, 0]
    return shape, scale * u, se_shape, se_scale * u


# --- Correlated failures (issue "Beyond independent drives"): the degraded multiplier m and
# the binomial failure rate model of shocks (Vesely 1977; Atwood 1986). Written from the
# issue's rules, not from planner's code:
#
# * every operational failure (a drive without the defect, or the defect's holder) out of a
#   state with f >= 1 runs at m times its rate;
# * shocks at S per hour; at a shock each of the N - f working drives fails with
#   probability q, independently, the defect's holder included: j ~ Binomial(N - f - l, q)
#   of the drives without the defect fail, and the holder (l = 1) with probability q, its
#   defect going with it. With d = f + j (+ 1 if the holder fails) drives down and the
#   defect left or not: d + l' <= k moves to (d, l'); d > k loses the whole group; d = k
#   with the defect left loses its stripes (σ of it for a pool, the rest to (k, 0)).
#
# Every move is listed by its target: a state (f, l), "group" or "sectors".


def _correlated_moves(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    multiplier: float,
    shocks_per_hour: float,
    q: float,
    share: float = 1.0,
    streams: int | None = 1,
) -> dict[tuple[int, int], dict[object, mpmath.mpf]]:
    """Every state's moves: target -> rate (1/h), targets a state, "group" or "sectors"."""
    lam, ld = mpmath.mpf(lop), mpmath.mpf(lld)
    mu, scrub = 1 / mpmath.mpf(rebuild_hours), 1 / mpmath.mpf(scrub_hours)
    m, rate, p, sigma = (mpmath.mpf(x) for x in (multiplier, shocks_per_hour, q, share))
    at_once = parity if streams is None else streams
    moves: dict[tuple[int, int], dict[object, mpmath.mpf]] = {}

    def add(source: tuple[int, int], target: object, value: mpmath.mpf) -> None:
        row = moves.setdefault(source, {})
        row[target] = row.get(target, mpmath.mpf(0)) + value

    def one_more(source: tuple[int, int], down: int, value: mpmath.mpf) -> None:
        """``down`` drives down in all with the source's defect: where the group goes."""
        lat = source[1]
        if down + lat <= parity:
            add(source, (down, lat), value)
        elif down > parity:
            add(source, "group", value)
        else:  # k drives down and the defect: its stripe, or not
            add(source, "sectors", sigma * value)
            add(source, (parity, 0), value - sigma * value)

    for f, lat in states(parity):
        s = (f, lat)
        moves.setdefault(s, {})
        working = drives - f - lat
        factor = m if f >= 1 else 1
        one_more(s, f + 1, working * lam * factor)
        if lat == 1:
            add(s, (f + 1, 0), lam * factor)  # the holder fails, its defect with it
        if lat == 0 and f < parity:
            add(s, (f, 1), (drives - f) * ld)
        if f > 0:
            add(s, (f - 1, lat), min(f, at_once) * mu)
        if s == (0, 1):
            add(s, (0, 0), scrub)
        for holder_fails in (False, True) if lat == 1 else (False,):
            for j in range(0 if holder_fails else 1, working + 1):
                chance = mpmath.binomial(working, j) * p**j * (1 - p) ** (working - j)
                if lat == 1:
                    chance *= p if holder_fails else 1 - p
                if not holder_fails:
                    one_more(s, f + j, rate * chance)
                elif f + 1 + j <= parity:  # the holder's defect goes with it
                    add(s, (f + 1 + j, 0), rate * chance)
                else:
                    add(s, "group", rate * chance)
    return moves


def _assemble(
    moves: dict[tuple[int, int], dict[object, mpmath.mpf]],
    parity: int,
    redirect: dict[object, object],
    absorbing: tuple[object, ...],
) -> tuple[mpmath.matrix, dict[object, int]]:
    """Q over the transient states then ``absorbing``; ``redirect`` maps a target elsewhere."""
    order: list[object] = [*states(parity), *absorbing]
    index = {s: i for i, s in enumerate(order)}
    q = mpmath.zeros(len(order), len(order))
    for source, row in moves.items():
        for target, value in row.items():
            target = redirect.get(target, target)
            if target != source:
                q[index[source], index[target]] += value
    for i in range(len(order)):
        q[i, i] = -mpmath.fsum(q[i, j] for j in range(len(order)) if j != i)
    return q, index


def correlated_figures(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    hours: float,
    multiplier: float,
    shocks_per_hour: float,
    q: float,
    share: float = 1.0,
    streams: int | None = 1,
) -> dict[str, mpmath.mpf]:
    """P(loss), P(group lost), P(sectors lost), expected sector-loss events and MTTDL.

    Each from a chain of its own, as issue 20 defines them: P(loss) the first loss of any
    kind; P(group lost) the chain without defects (shocks on all N - f working drives);
    P(sectors lost) with a lost group restored to pristine; the events counted in the chain
    that goes on (a sector loss leaves k drives down, a group loss restarts pristine),
    integrated spectrally; the MTTDL by LU.
    """
    args = (parity, drives, lop, lld, rebuild_hours, scrub_hours, multiplier, shocks_per_hour, q)
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        t = mpmath.mpf(hours)
        moves = _correlated_moves(*args, share=share, streams=streams)
        full, index = _assemble(moves, parity, {}, ("group", "sectors"))
        exp = expm(full * t)
        size = full.rows - 2
        a = mpmath.matrix(size, size)
        for i in range(size):
            for j in range(size):
                a[i, j] = -full[i, j]
        mttdl_value = mpmath.lu_solve(a, mpmath.matrix([1] * size))[0]
        sectors_q, sectors_index = _assemble(moves, parity, {"group": (0, 0)}, ("sectors",))
        on_q, _ = _assemble(moves, parity, {"group": (0, 0), "sectors": (parity, 0)}, ())
        rates_of_sector_loss = [moves[s].get("sectors", mpmath.mpf(0)) for s in states(parity)]
        return {
            "p_loss": exp[0, index["group"]] + exp[0, index["sectors"]],
            "p_group_lost": _defect_free_group_lost(*args, hours, streams),
            "p_sectors_lost": expm(sectors_q * t)[0, sectors_index["sectors"]],
            "expected_sector_loss_events": _occupancy_reward(on_q, rates_of_sector_loss, t),
            "mttdl_hours": +mttdl_value,
        }


def _occupancy_reward(q: mpmath.matrix, reward: list[mpmath.mpf], t: mpmath.mpf) -> mpmath.mpf:
    """``sum_j reward_j integral_0^T exp(Q s)[0, j] ds`` by eigendecomposition."""
    eigenvalues, vectors = mpmath.eig(q)
    inverse = mpmath.inverse(vectors)
    total = mpmath.mpf(0)
    for i, value in enumerate(eigenvalues):
        small = abs(value * t) < mpmath.mpf(10) ** (-40)
        integral = t if small else mpmath.expm1(value * t) / value
        weight = mpmath.fsum(inverse[i, j] * reward[j] for j in range(len(reward)))
        total += vectors[0, i] * integral * weight
    return +mpmath.re(total)


def _defect_free_group_lost(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    multiplier: float,
    shocks_per_hour: float,
    q: float,
    hours: float,
    streams: int | None,
) -> mpmath.mpf:
    """P(more than k drives down at once by ``hours``) in the chain without defects.

    f = 0 .. k + 1: a failure at (N - f) λOp (times m while f >= 1), a shock f -> f + j at
    S C(N - f, j) q^j (1 - q)^(N - f - j) (past k: f = k + 1, absorbing), a rebuild at
    min(f, streams) μOp.
    """
    del lld, scrub_hours  # defects play no part
    g = _aged_birth_death(
        parity, drives, lop, rebuild_hours, multiplier, shocks_per_hour, q, streams
    )  # fmt: skip
    return +expm(g * mpmath.mpf(hours))[0, parity + 1]


# ---------------------------------------------------------------------------------------
# Enclosures (failure domains, docs/domains.md), written from the rules of the docs, not
# from planner's code. A group of N drives, k parity, sits in ``large`` enclosures of L of its
# drives and ``small`` of S; each enclosure fails at λe and returns at μe on its own, its
# drives unavailable meanwhile and back with their data. States (x, y, f, g, l): x large and
# y small enclosures down (d = xL + yS drives offline), f failed drives online, g failed
# drives offline, l = 0 no defect, 1 a defect on a working online drive, 2 (3) on a working
# drive offline in a large (small) enclosure. The group serves while d + f <= k, one fewer
# with the defect online, or d = k, f = 0 with it ("exposed": no rebuild reads it).
# An enclosure's drives are drawn alike (every subset of the online, or offline, drives
# equally likely); a returning enclosure is the offline defect's own with 1 / (down of its
# kind).
#
# Every move is listed by its target: a state, "group", ("sectors", cause, state the
# going-on chain continues in) or "outage" (an enclosure failure past parity: no move, but
# the group stops serving).


def _enclosure_states(parity: int, placement: tuple[int, int, int, int]) -> list[tuple[int, ...]]:
    large, size_l, small, size_s = placement
    found = []
    for x in range(large + 1):
        for y in range(small + 1):
            d = x * size_l + y * size_s
            for f in range(parity - d + 1) if d <= parity else ():
                for g in range(d + 1):
                    found.append((x, y, f, g, 0))
                    if d + f + 1 <= parity or (d == parity and f == 0):
                        found.append((x, y, f, g, 1))
                    if x and g < d:
                        found.append((x, y, f, g, 2))
                    if y and g < d:
                        found.append((x, y, f, g, 3))
    return sorted(found, key=lambda s: (s[0] * size_l + s[1] * size_s, s))


def _subsets(failed: int, holder: int, working: int, size: int) -> dict[tuple[int, int], Any]:
    """P(j failed, h holder) for ``size`` slots drawn alike: every subset counted."""
    from itertools import combinations

    labels = ["F"] * failed + ["H"] * holder + ["W"] * working
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for pick in combinations(range(len(labels)), size):
        key = (sum(labels[i] == "F" for i in pick), sum(labels[i] == "H" for i in pick))
        counts[key] = counts.get(key, 0) + 1
        total += 1
    return {key: mpmath.mpf(n) / total for key, n in counts.items()}


def _enclosure_moves(
    parity: int,
    placement: tuple[int, int, int, int],
    rates: dict[str, Any],
    streams: int | None = 1,
) -> dict[tuple[int, ...], dict[object, mpmath.mpf]]:
    """Every state's moves: target -> rate (1/h); rates λop, λld, μop, μscrub, λe, μe, σ."""
    large, size_l, small, size_s = placement
    drives = large * size_l + small * size_s
    lam, ld, mu, scrub, lam_e, mu_e, sigma = (
        mpmath.mpf(rates[name]) for name in ("lop", "lld", "mu", "scrub", "lam_e", "mu_e", "sigma")
    )
    at_once = parity if streams is None else streams
    moves: dict[tuple[int, ...], dict[object, mpmath.mpf]] = {}

    def add(source: tuple[int, ...], target: object, value: mpmath.mpf) -> None:
        row = moves.setdefault(source, {})
        row[target] = row.get(target, mpmath.mpf(0)) + value

    def land(
        source: tuple[int, ...], target: tuple[int, ...], value: Any, cause: str, past: str
    ) -> None:
        x, y, f, g, lat = target
        missing = x * size_l + y * size_s + f
        if missing > parity:
            add(source, past, value)
        elif lat == 1 and missing == parity and f >= 1:  # a rebuild reads the defect's stripes
            add(source, ("sectors", cause, (x, y, f, g, 0)), sigma * value)
            add(source, (x, y, f, g, 0), (1 - sigma) * value)
        else:
            add(source, target, value)

    for s in _enclosure_states(parity, placement):
        x, y, f, g, lat = s
        moves.setdefault(s, {})
        d = x * size_l + y * size_s
        on = 1 if lat == 1 else 0
        online_working = drives - d - f
        land(s, (x, y, f + 1, g, lat), (online_working - on) * lam, "drive", "group")
        if on:
            land(s, (x, y, f + 1, g, 0), lam, "drive", "group")
        elif d + f + 1 <= parity or (d == parity and f == 0):
            land(s, (x, y, f, g, 1), online_working * ld, "drive", "group")
        if f:
            land(s, (x, y, f - 1, g, lat), min(f, at_once) * mu, "drive", "group")
        if on and f == 0 and d < parity:
            add(s, (x, y, 0, g, 0), scrub)
        if on and f == 0 and d == parity:
            add(s, ("sectors", "scrub", (x, y, 0, g, 0)), sigma * scrub)
            add(s, (x, y, 0, g, 0), (1 - sigma) * scrub)
        kinds = (
            (x, large, size_l, (1, 0), 2, "large"),
            (y, small, size_s, (0, 1), 3, "small"),
        )
        for down, count, size, (dx, dy), tag, name in kinds:
            if down < count:
                draws = _subsets(f, on, drives - d - f - on, size)
                for (j, h), chance in draws.items():
                    target = (x + dx, y + dy, f - j, g + j, tag if h else lat)
                    land(s, target, (count - down) * lam_e * chance, name + " fails", "outage")
            if down:
                offline_holder = 1 if lat in (2, 3) else 0
                pool = d - offline_holder
                own = 1 if lat == tag else 0
                cases = [(1 - mpmath.mpf(own) / down, 0)] + (
                    [(mpmath.mpf(1) / down, 1)] if own else []
                )
                for weight, h in cases:
                    for (j, _), chance in _subsets(g, 0, pool - g, size - h).items():
                        target = (x - dx, y - dy, f + j, g - j, 1 if h else lat)
                        land(s, target, down * mu_e * weight * chance, name + " returns", "group")
    return moves


def _enclosure_q(
    moves: dict[tuple[int, ...], dict[object, mpmath.mpf]], where: Any
) -> tuple[mpmath.matrix, int]:
    """Q over the states in ``moves`` and one absorbing state; ``where(target)`` says where a
    move goes: a state, "absorb", or None (no move)."""
    order = list(moves)
    index = {s: i for i, s in enumerate(order)}
    last = len(order)
    q = mpmath.zeros(last + 1, last + 1)
    for source, row in moves.items():
        for target, value in row.items():
            goes = where(target)
            if goes is None or goes == source:
                continue
            q[index[source], last if goes == "absorb" else index[goes]] += value
    for i in range(last + 1):
        q[i, i] = -mpmath.fsum(q[i, j] for j in range(last + 1) if j != i)
    return q, last


def _first_row(q: mpmath.matrix, t: mpmath.mpf, exact: bool) -> list[Any]:
    """Row 0 of exp(Q t): in mpmath, or (``exact`` False) by SciPy's Padé in float64."""
    if exact:
        e = expm(q * t)
        return [e[0, j] for j in range(q.cols)]
    from scipy.linalg import expm as scipy_expm

    dense = np.array(q.tolist(), dtype=np.float64)
    return [mpmath.mpf(float(v)) for v in scipy_expm(dense * float(t))[0]]


def enclosure_figures(
    parity: int,
    placement: tuple[int, int, int, int],
    rates: dict[str, float],
    hours: float,
    streams: int | None = 1,
    exact: bool = True,
) -> dict[str, mpmath.mpf]:
    """P(loss), P(group lost), P(sectors lost), expected sector-loss events, P(unavailable)
    and the MTTDL of the enclosure chain, each from a chain of its own (docs/domains.md).

    ``placement`` = (large, L, small, S); ``rates``: lop, lld, mu, scrub, lam_e, mu_e
    (1/h) and sigma. The exponentials in mpmath (a 20-state chain takes about a second
    each), or with ``exact`` False by SciPy in float64 (for probabilities far above 1e-12,
    good to about 1e-12); the expected events from Van Loan's augmented matrix, the MTTDL
    by mpmath's LU.
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        t = mpmath.mpf(hours)
        moves = _enclosure_moves(parity, placement, rates, streams)

        def lost(target: object) -> object:
            if target == "outage":
                return None
            sectors = isinstance(target, tuple) and target[0] == "sectors"
            return "absorb" if target == "group" or sectors else target

        full, last = _enclosure_q(moves, lost)
        unavailable, _ = _enclosure_q(moves, lambda t_: "absorb" if t_ == "outage" else lost(t_))
        restored = (0, 0, 0, 0, 0)
        sectors_q, _ = _enclosure_q(moves, lambda t_: restored if t_ == "group" else lost(t_))

        def goes_on(target: object) -> object:
            if target == "group":
                return restored
            if isinstance(target, tuple) and target[0] == "sectors":
                return target[2]
            return None if target == "outage" else target

        # Van Loan: [[Q_on, r], [0, 0]], its exponential's (0, last) entry the events by T
        van_loan, _ = _enclosure_q(moves, goes_on)
        for i, row in enumerate(moves.values()):
            rate = mpmath.fsum(
                v for k_, v in row.items() if isinstance(k_, tuple) and k_[0] == "sectors"
            )
            van_loan[i, last] = rate  # the reward column; the diagonal stays the chain's
        a = mpmath.matrix(last, last)
        for i in range(last):
            for j in range(last):
                a[i, j] = -full[i, j]
        no_defects = dict(rates, lld=0)
        group_q, _ = _enclosure_q(_enclosure_moves(parity, placement, no_defects, streams), lost)
        return {
            "p_loss": _first_row(full, t, exact)[last],
            "p_group_lost": _first_row(group_q, t, exact)[last],
            "p_sectors_lost": _first_row(sectors_q, t, exact)[last],
            "expected_sector_loss_events": _first_row(van_loan, t, exact)[last],
            "p_unavailable": _first_row(unavailable, t, exact)[last],
            "mttdl_hours": +mpmath.lu_solve(a, mpmath.matrix([1] * last))[0],
        }


# The same model with every drive and enclosure tracked on its own (tiny groups only): the
# enclosures are fixed sets of drives, and where a failed drive or the defect sits is known.
# What the lumped chain takes as a convention is physical here: a failed drive may sit in
# the enclosure that fails (it is then missing once, its rebuild paused until the enclosure
# returns), and the holder of the defect is a working drive of some enclosure. A state is
# (enclosures down, drives failed, the defect's holder or None); the group serves while the
# missing drives (failed or offline) are at most k, and a defect online needs one more
# (or, with no rebuild running, waits exposed for the scrub).


def _settle(
    parity: int,
    members: list[tuple[int, ...]],
    down: frozenset[int],
    failed: frozenset[int],
    defect: int | None,
    past: str,
) -> list[tuple[object, float]]:
    """Where a move to (down, failed, defect) ends, with shares: a state, ``past`` or sectors."""
    offline = {drive for j in down for drive in members[j]}
    missing = len(failed | offline)
    if missing > parity:
        return [(past, 1.0)]
    online_defect = defect is not None and defect not in offline
    if online_defect and missing == parity and failed - offline:
        return [("sectors", 1.0)]  # a rebuild runs and reads the defect's stripes
    return [((down, failed, defect), 1.0)]


def _physical_moves(
    parity: int, members: list[tuple[int, ...]], rates: dict[str, float], streams: int | None
) -> dict[object, dict[object, float]]:
    """Every reachable state's moves (target -> rate, 1/h) from pristine, by search."""
    drives = sorted({d for group in members for d in group})
    start = (frozenset(), frozenset(), None)
    moves: dict[object, dict[object, float]] = {}
    todo = [start]
    while todo:
        state = todo.pop()
        if state in moves:
            continue
        row: dict[object, float] = {}
        moves[state] = row
        down, failed, defect = state
        offline = {d for j in down for d in members[j]}
        missing = len(failed | offline)
        online_defect = defect is not None and defect not in offline
        rebuilding = sorted(failed - offline)

        def add(
            results: list[tuple[object, float]], rate: float, row: dict[object, float] = row
        ) -> None:
            for target, share in results:
                row[target] = row.get(target, 0.0) + rate * share
                if isinstance(target, tuple):
                    todo.append(target)

        for drive in drives:
            if drive in failed or drive in offline:
                continue
            kept = None if drive == defect else defect
            add(_settle(parity, members, down, failed | {drive}, kept, "group"), rates["lop"])
            if not online_defect and (missing + 1 <= parity or not rebuilding):
                add([((down, failed, drive), 1.0)], rates["lld"])
        at_once = len(rebuilding) if streams is None else min(len(rebuilding), streams)
        for drive in rebuilding:
            add([((down, failed - {drive}, defect), 1.0)], rates["mu"] * at_once / len(rebuilding))
        if online_defect and not rebuilding:
            add([("sectors" if missing == parity else (down, failed, None), 1.0)], rates["scrub"])
        for j in range(len(members)):
            if j in down:
                add(_settle(parity, members, down - {j}, failed, defect, "group"), rates["mu_e"])
            else:
                add(_settle(parity, members, down | {j}, failed, defect, "outage"), rates["lam_e"])
    return moves


def enclosure_enumeration(
    parity: int,
    members: list[tuple[int, ...]],
    rates: dict[str, float],
    hours: float,
    streams: int | None = 1,
) -> dict[str, float]:
    """P(loss), P(unavailable) and P(group lost) with every drive and enclosure on its own.

    ``members``: the drives of each enclosure; ``rates`` as :func:`enclosure_figures`'s
    (without sigma: stripes span the whole group). The states are hundreds, so in float64
    by uniformization (a Poisson mixture of the powers of ``I + Q / c``: positive terms, no
    cancellation; vector products, so no BLAS threads to wait for).
    """

    def expm_row(q: Any) -> Any:
        c = float(-q.diagonal().min())
        step = np.eye(q.shape[0]) + q / c
        mean = c * hours
        last = int(mean + 12 * math.sqrt(mean) + 30)
        n = np.arange(last + 1)
        weights = np.exp(n * math.log(mean) - mean - np.array([math.lgamma(k + 1) for k in n]))
        v = np.zeros(q.shape[0])
        v[0] = 1.0
        out = np.zeros(q.shape[0])
        for weight in weights:
            out += weight * v
            v = v @ step
        return out

    def solve(moves: dict[object, dict[object, float]], absorbing: tuple[str, ...]) -> float:
        order = list(moves)
        index = {s: i for i, s in enumerate(order)}
        last = len(order)
        q = np.zeros((last + 1, last + 1))
        for source, row in moves.items():
            for target, value in row.items():
                if target in absorbing:
                    q[index[source], last] += value
                elif isinstance(target, tuple) and target != source:
                    q[index[source], index[target]] += value
        q[np.diag_indices(last + 1)] = -q.sum(axis=1)
        return float(expm_row(q)[last])

    moves = _physical_moves(parity, members, rates, streams)
    no_defects = _physical_moves(parity, members, dict(rates, lld=0.0), streams)
    return {
        "p_loss": solve(moves, ("group", "sectors")),
        "p_unavailable": solve(moves, ("group", "sectors", "outage")),
        "p_group_lost": solve(no_defects, ("group", "sectors")),
    }


# --- Ageing (issue "Beyond independent drives", item 3): the time-inhomogeneous chain whose
# failure rate changes from piece to piece of the mission (every drive of the group at the
# batch's age). Written from the rules above, not from planner's code: on each piece the
# moves of the (correlated) chain at that piece's λOp, exp(Q dt) of each chain at the
# working precision, the rows carried by products; the expected sector-loss events by Van
# Loan's augmented matrix [[Q, r], [0, 0]] of each piece, its last column accumulating.


def aged_figures(
    parity: int,
    drives: int,
    lop_by_piece: list[float],
    hours_by_piece: list[float],
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    multiplier: float = 1.0,
    shocks_per_hour: float = 0.0,
    q: float = 0.0,
    streams: int | None = 1,
    only_p_loss: bool = False,
    dps: int = 40,
) -> dict[str, mpmath.mpf]:
    """P(loss), P(group lost), P(sectors lost) and expected events over pieces of a mission.

    Piece i lasts ``hours_by_piece[i]`` with every drive failing at ``lop_by_piece[i]``
    per hour; the other rates are constant. The four chains as :func:`correlated_figures`
    defines them, each started pristine and carried through the pieces (``only_p_loss``:
    the first alone) at ``dps`` digits.
    """
    with mpmath.workdps(dps):
        transient = states(parity)
        rows: dict[str, mpmath.matrix] = {}
        for lop, hours in zip(lop_by_piece, hours_by_piece, strict=True):
            moves = _correlated_moves(
                parity, drives, lop, lld, rebuild_hours, scrub_hours, multiplier,
                shocks_per_hour, q, streams=streams,
            )  # fmt: skip
            t = mpmath.mpf(hours)
            sector_rates = [moves[s].get("sectors", mpmath.mpf(0)) for s in transient]
            on_q, _ = _assemble(moves, parity, {"group": (0, 0), "sectors": (parity, 0)}, ())
            chains = {
                "p_loss": _assemble(moves, parity, {}, ("group", "sectors"))[0],
                "p_sectors_lost": _assemble(moves, parity, {"group": (0, 0)}, ("sectors",))[0],
                "p_group_lost": _aged_birth_death(
                    parity, drives, lop, rebuild_hours, multiplier, shocks_per_hour, q, streams
                ),
                "expected_sector_loss_events": _piece_van_loan(on_q, sector_rates),
            }
            if only_p_loss:
                chains = {"p_loss": chains["p_loss"]}
            for name, matrix in chains.items():
                step = expm(matrix * t)
                if name not in rows:
                    rows[name] = step[0, :]
                else:
                    rows[name] = rows[name] * step
        out = {}
        for name, row in rows.items():
            if name == "p_loss":  # two absorbing states: group, then sectors
                out[name] = +(row[0, row.cols - 2] + row[0, row.cols - 1])
            else:
                out[name] = +row[0, row.cols - 1]
        return out


def _piece_van_loan(q: mpmath.matrix, reward: list[mpmath.mpf]) -> mpmath.matrix:
    """[[Q, r], [0, 0]]: its exponential's last column integrates exp(Q s) r over the piece."""
    size = q.rows
    m = mpmath.zeros(size + 1, size + 1)
    for i in range(size):
        for j in range(size):
            m[i, j] = q[i, j]
        m[i, size] = reward[i]
    return m


def _aged_birth_death(
    parity: int,
    drives: int,
    lop: float,
    rebuild_hours: float,
    multiplier: float,
    shocks_per_hour: float,
    q: float,
    streams: int | None,
) -> mpmath.matrix:
    """The generator of the chain without defects (see :func:`_defect_free_group_lost`)."""
    lam, mu = mpmath.mpf(lop), 1 / mpmath.mpf(rebuild_hours)
    m, rate, p = (mpmath.mpf(x) for x in (multiplier, shocks_per_hour, q))
    at_once = parity if streams is None else streams
    size = parity + 2
    g = mpmath.zeros(size, size)
    for f in range(parity + 1):
        working = drives - f
        g[f, f + 1] += working * lam * (m if f >= 1 else 1)
        for j in range(1, working + 1):
            chance = mpmath.binomial(working, j) * p**j * (1 - p) ** (working - j)
            g[f, min(f + j, parity + 1)] += rate * chance
        if f > 0:
            g[f, f - 1] += min(f, at_once) * mu
        g[f, f] = -mpmath.fsum(g[f, j] for j in range(size) if j != f)
    return g


def table_pieces(
    rates_by_year: list[float], age_at_start_hours: float, mission_hours: float
) -> tuple[list[float], list[float]]:
    """A table of rates by year of service as pieces: (rate of each, hours of each).

    Year y (from 0) covers ages [8,760 y, 8,760 (y + 1)); the last rate holds after the
    table. The mission covers ages [a0, a0 + T].
    """
    rates, hours = [], []
    age, end = age_at_start_hours, age_at_start_hours + mission_hours
    while age < end:
        year = int(age // HOURS_PER_YEAR)
        stop = min(end, (year + 1) * HOURS_PER_YEAR) if year < len(rates_by_year) - 1 else end
        rates.append(rates_by_year[min(year, len(rates_by_year) - 1)])
        hours.append(stop - age)
        age = stop
    return rates, hours


def aged_bounds(
    parity: int,
    drives: int,
    low: list[float],
    mean: list[float],
    high: list[float],
    hours_by_piece: list[float],
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    multiplier: float = 1.0,
    dps: int = 30,
) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The lower and upper bounds of P(loss) when λOp(t) lies in [low, high] on each piece.

    From the Dyson series of the transition matrix around its diagonal (the issue's bound,
    not planner's code): on a piece, with G(λ) the generator at λ, J its off-diagonal part
    and x(λ) its exit rates, the bounds are
    ``exp((J(high) - diag x(low)) dt) - diag e^(-x(low) dt) + diag e^(-x(mean) dt)`` and
    ``exp((J(low) - diag x(high)) dt) - diag e^(-x(high) dt) + diag e^(-x(mean) dt)``,
    each exponential of a matrix that is not a generator taken by mpmath as it is; the
    products over the pieces, (pristine, loss) entry (both loss states).
    """
    with mpmath.workdps(dps):
        ends = []
        for upper in (False, True):
            row = None
            for lo, mid, hi, hours in zip(low, mean, high, hours_by_piece, strict=True):
                at = {}
                for name, lam in (("low", lo), ("mean", mid), ("high", hi)):
                    moves = _correlated_moves(
                        parity, drives, lam, lld, rebuild_hours, scrub_hours, multiplier, 0, 0
                    )
                    at[name] = _assemble(moves, parity, {}, ("group", "sectors"))[0]
                moving, exiting = (at["high"], at["low"]) if upper else (at["low"], at["high"])
                size = moving.rows
                t = mpmath.mpf(hours)
                m = mpmath.zeros(size, size)
                for i in range(size):
                    for j in range(size):
                        m[i, j] = exiting[i, i] if i == j else moving[i, j]
                step = expm(m * t)
                for i in range(size):
                    step[i, i] += mpmath.exp(at["mean"][i, i] * t) - mpmath.exp(exiting[i, i] * t)
                row = step[0, :] if row is None else row * step
            assert row is not None
            ends.append(+(row[0, row.cols - 2] + row[0, row.cols - 1]))
        return ends[0], ends[1]


# --- Availability and magnitude (issue "Beyond independent drives", item 4): integrals over
# the mission of the chain that goes on after every loss (a whole-group loss restored to
# pristine, a sector loss to k drives down), written from the rules with the moves
# of _correlated_moves (m = 1 and no shocks give the independent chain), not from planner.


@_kept
def going_on_integrals(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    scrub_hours: float,
    hours: float,
    *,
    share: float = 1.0,
    streams: int | None = 1,
    multiplier: float = 1.0,
    shocks_per_hour: float = 0.0,
    q: float = 0.0,
    method: str = "vanloan",
) -> dict[str, mpmath.mpf]:
    """Expected whole-group losses and sector-loss events, and the degraded and critical
    fractions of the mission, in the chain that goes on.

    Each is ``integral_0^T p(t) r dt`` (over T for the fractions) with ``r`` each state's
    rate of whole-group losses, of sector losses, the indicator of f >= 1 (degraded), of
    f = k (critical; (k - 1, 1) is not counted). ``method``: "vanloan" exponentiates the
    block matrix [[Q T, R T], [0, 0]] with mpmath (its top-right block is the integrals:
    Van Loan, "Computing integrals involving the matrix exponential", 1978); "spectral"
    integrates the eigendecomposition of Q term by term.
    """
    args = (parity, drives, lop, lld, rebuild_hours, scrub_hours, multiplier, shocks_per_hour, q)
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        t = mpmath.mpf(hours)
        moves = _correlated_moves(*args, share=share, streams=streams)
        on_q, _ = _assemble(moves, parity, {"group": (0, 0), "sectors": (parity, 0)}, ())
        chain_states = states(parity)
        zero = mpmath.mpf(0)
        rewards = {
            "expected_group_losses": [moves[s].get("group", zero) for s in chain_states],
            "expected_sector_loss_events": [moves[s].get("sectors", zero) for s in chain_states],
            "degraded_fraction": [mpmath.mpf(f >= 1) for f, _ in chain_states],
            "critical_fraction": [mpmath.mpf(f == parity) for f, _ in chain_states],
        }
        integrals = (
            _van_loan(on_q, list(rewards.values()), t)
            if method == "vanloan"
            else [_occupancy_reward(on_q, r, t) for r in rewards.values()]
        )
        out = dict(zip(rewards, integrals, strict=True))
        for name in ("degraded_fraction", "critical_fraction"):
            out[name] = out[name] / t
        return out


def _van_loan(q: mpmath.matrix, rewards: list[list[mpmath.mpf]], t: mpmath.mpf) -> list[mpmath.mpf]:
    """``integral_0^T exp(Q s)[0, :] r ds`` for each reward r: the block exponential's row."""
    n, count = q.rows, len(rewards)
    block = mpmath.zeros(n + count, n + count)
    for i in range(n):
        for j in range(n):
            block[i, j] = q[i, j] * t
        for c, reward in enumerate(rewards):
            block[i, n + c] = reward[i] * t
    row = expm(block)
    return [+row[0, n + c] for c in range(count)]


def two_state_degraded_fraction(
    drives: int, lop: float, rebuild_hours: float, hours: float
) -> mpmath.mpf:
    """Degraded fraction of a single-parity group without defects, in closed form.

    Two states: all up, or one drive down. Up -> down at a = N λ; down -> up at
    b = μ + (N - 1) λ (the rebuild, or a second failure whose lost group is restored to
    pristine). From up, P(down at t) = a / (a + b) (1 - exp(-(a + b) t)), so the mean over
    [0, T] is a / (a + b) (1 - (1 - exp(-(a + b) T)) / ((a + b) T)); for a long mission
    a / (a + b), the unavailability of a repairable pair.
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        lam, t = mpmath.mpf(lop), mpmath.mpf(hours)
        a, b = drives * lam, 1 / mpmath.mpf(rebuild_hours) + (drives - 1) * lam
        s = a + b
        return +(a / s * (1 + mpmath.expm1(-s * t) / (s * t)))


def p_loss_critical_moved(
    parity: int,
    drives: int,
    lop: float,
    lld: float,
    rebuild_hours: float,
    hours: float,
    *,
    unreadable: float | mpmath.mpf = 0,
    defects_lost: bool = False,
    survivors_lld: float | None = None,
) -> mpmath.mpf:
    """P(loss) of the n+k chain whose critical state (k, 0) moves more to loss (scrub 168 h).

    ``unreadable``: the spec-sheet method's p, the rebuild out of (k, 0) ending in loss with
    that probability (back to (k - 1, 0) with 1 - p). ``defects_lost``: every defect that
    arises on a survivor there is a loss ((N - k) lld more to loss), the bound of
    :mod:`planner.analysis.critical_defects`; ``survivors_lld``: each survivor's own rate
    there (default ``lld``).
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        survivors = mpmath.mpf(lld if survivors_lld is None else survivors_lld)
        mu = 1 / mpmath.mpf(rebuild_hours)
        q = generator(parity, drives, lop, lld, mu, mpmath.mpf(1) / 168)
        index = states(parity)
        critical, back, loss = index.index((parity, 0)), index.index((parity - 1, 0)), q.rows - 1
        p = mpmath.mpf(unreadable)
        q[critical, back] = (1 - p) * mu
        q[critical, loss] += p * mu + (drives - parity) * survivors * defects_lost
        q[critical, critical] = -mpmath.fsum(q[critical, j] for j in range(q.cols) if j != critical)
        return +expm(q * mpmath.mpf(hours))[0, loss]
