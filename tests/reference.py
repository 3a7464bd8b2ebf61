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
scaling and squaring (:func:`p_loss`) or by eigendecomposition (:func:`p_loss_eig`), and
the MTTDL solves ``-A x = 1`` on the transient states by mpmath's LU (:func:`mttdl`).

At the end, the survival reference of ``planner fit``'s tests: the censored Weibull
maximum-likelihood fit and its observed information (:func:`weibull_censored_mle`).
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np

DPS = 60
"""Working precision (decimal digits); callers may raise it with ``mpmath.workdps``."""

QUAD_DPS = 30
"""Digits of the numerical integration (``method="quad"``): its own error is near 1e-25,
far below the 1e-12 it is checked to; at 60 digits the same integral cost three times the
CPU time."""

HOURS_PER_YEAR = 8760


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
) -> mpmath.matrix:
    """Q (per hour) of the n+k chain at the current mpmath precision, loss state last.

    Args:
        parity: k; drives: N; lop, lld: failure and defect rates of one drive (1/h);
        mu_op, mu_scrub: rebuild and scrub rates (1/h); streams: rebuilds at once;
        share: a declustered pool's σ (issue 20): the failure out of (k - 1, 1) loses
            sectors with probability σ and otherwise goes to (k, 0).
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
            q[i, index[(f, 1)]] += (drives - f) * lld
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
) -> object:
    at_once = parity if streams is None else streams  # None: every failed drive (f <= k)
    return generator(
        parity, drives, lop, lld, 1 / mpmath.mpf(rebuild), 1 / mpmath.mpf(scrub), at_once, share
    )


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
) -> mpmath.mpf:
    """P(one group loses data within ``hours``), starting pristine: exp(Q T)[0, loss]."""
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q = _q(parity, drives, lop, lld, rebuild_hours, scrub_hours, streams, share)
        return +mpmath.expm(q * mpmath.mpf(hours))[0, q.rows - 1]


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
        return +mpmath.expm(q * mpmath.mpf(hours))[0, size - 1]


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
        exp = mpmath.expm(q * mpmath.mpf(hours))
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
        return +mpmath.expm(q * mpmath.mpf(hours))[0, size - 1]


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
        return +mpmath.expm(q * mpmath.mpf(hours))[0, q.rows - 1]


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
    digits); "quad" integrates exp(Q t) numerically with mpmath.quad at :data:`QUAD_DPS`
    digits (slow: an exponential of Q at each of some 250 nodes).
    """
    with mpmath.workdps(max(DPS, mpmath.mp.dps)):
        q, j, rate = _going_on_generator(
            parity, drives, lop, lld, rebuild_hours, scrub_hours, share, streams,
            sectors_absorb=False,
        )  # fmt: skip
        t = mpmath.mpf(hours)
        if method == "quad":
            with mpmath.workdps(QUAD_DPS):
                occupancy = mpmath.quad(lambda s: mpmath.expm(q * s)[0, j], [0, t])
            return +(rate * occupancy)
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
# * shocks at S per hour; at a shock each of the W = N - f - l working drives without a
#   defect fails with probability q, j ~ Binomial(W, q) of them at once; j >= 1 moves
#   (f, l) -> (f + j, l) while f + j + l <= k; f + j > k loses the whole group; l = 1 and
#   f + j = k loses the defect's stripes (σ of it for a pool, the rest to (k, 0)).
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
        for j in range(1, working + 1):
            chance = mpmath.binomial(working, j) * p**j * (1 - p) ** (working - j)
            one_more(s, f + j, rate * chance)
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
        exp = mpmath.expm(full * t)
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
            "p_sectors_lost": mpmath.expm(sectors_q * t)[0, sectors_index["sectors"]],
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
    return +mpmath.expm(g * mpmath.mpf(hours))[0, size - 1]


# --- Availability and magnitude (issue "Beyond independent drives", item 4): integrals over
# the mission of the chain that goes on after every loss (a whole-group loss restored to
# pristine, a sector loss to k drives down), written from the rules with the moves
# of _correlated_moves (m = 1 and no shocks give the independent chain), not from planner.


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
    row = mpmath.expm(block)
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
