"""Throughput and accuracy of the batch evaluator against one-by-one p_loss_group.

Both run in the same process on the same cases: a few thousand groups with mixed sizes,
k = 1..3 and random rates and missions. The baseline is scipy.linalg.expm on one generator
at a time (planner.core.markov.transient.generator_matrix, Rates objects built beforehand), the
issue's reference of about 26 µs a layout;
the batch is planner.core.markov.batch.p_loss_group_mixed on the whole set. Timings are the
minimum over interleaved repeats, robust to other load on the machine. The maximum
relative error of each against a 50-digit mpmath exponential of the same generator (built
here from the textual rules) is measured on a subsample.

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_batch.py [CASES]   (about 10-30 s)
"""

from __future__ import annotations

import sys
import time

import mpmath
import numpy as np
from scipy.linalg import expm

from planner.core.markov.batch import p_loss_group_mixed
from planner.core.markov.rates import Rates
from planner.core.markov.transient import generator_matrix

HOURS_PER_YEAR = 8760.0
REPEATS = 7
SUBSAMPLE = 50


def random_cases(count: int, seed: int = 6) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    parity = rng.integers(1, 4, count)
    return {
        "parity": parity,
        "drives": parity + rng.integers(1, 28, count),
        "op": rng.uniform(0.005, 0.08, count) / HOURS_PER_YEAR,  # ARR 0.5% .. 8%
        "ld": 10.0 ** rng.uniform(-7.0, -3.5, count),
        "rebuild": rng.uniform(4.0, 72.0, count),
        "scrub": rng.uniform(24.0, 720.0, count),
        "mission": rng.uniform(1.0, 10.0, count) * HOURS_PER_YEAR,
    }


def reference(parity: int, drives: int, rates: Rates, hours: float) -> mpmath.mpf:
    """(pristine, loss) entry of exp(Q T) at 50 digits, Q from the textual rules."""
    with mpmath.workdps(50):
        lop, lld = mpmath.mpf(rates.op_failures_per_hour), mpmath.mpf(rates.latent_defects_per_hour)
        mop, msc = 1 / mpmath.mpf(rates.rebuild_hours), 1 / mpmath.mpf(rates.scrub_hours)
        states = [(f, lat) for f in range(parity + 1) for lat in (0, 1) if f + lat <= parity]
        index = {s: i for i, s in enumerate(states)}
        loss = len(states)
        q = mpmath.zeros(loss + 1, loss + 1)
        for (f, lat), i in index.items():
            q[i, loss if f + 1 + lat > parity else index[(f + 1, lat)]] += (drives - f - lat) * lop
            if lat == 1:  # the drive holding the defect fails (issue 20)
                q[i, index[(f + 1, 0)]] += lop
            if lat == 0 and f < parity:
                q[i, index[(f, 1)]] += (drives - f) * lld
            if f > 0:
                q[i, index[(f - 1, lat)]] += mop
            if (f, lat) == (0, 1):
                q[i, 0] += msc
        for i in range(loss + 1):
            q[i, i] = -mpmath.fsum(q[i, j] for j in range(loss + 1) if j != i)
        return +mpmath.expm(q * mpmath.mpf(hours))[0, loss]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    c = random_cases(count)
    rates = [
        Rates(float(c["op"][i]), float(c["ld"][i]), float(c["rebuild"][i]), float(c["scrub"][i]))
        for i in range(count)
    ]
    args = [
        (int(c["parity"][i]), int(c["drives"][i]), rates[i], float(c["mission"][i]))
        for i in range(count)
    ]

    def one_by_one() -> np.ndarray:
        return np.array([expm(generator_matrix(k, n, r) * hours)[0, -1] for k, n, r, hours in args])

    def batch() -> np.ndarray:
        return p_loss_group_mixed(
            c["parity"], c["drives"], c["op"], c["ld"], c["rebuild"], c["scrub"], c["mission"]
        )

    p_scipy, p_batch = one_by_one(), batch()
    best_scipy = best_batch = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        one_by_one()
        best_scipy = min(best_scipy, time.perf_counter() - start)
        start = time.perf_counter()
        batch()
        best_batch = min(best_batch, time.perf_counter() - start)

    rng = np.random.default_rng(1)
    sample = rng.choice(count, size=min(SUBSAMPLE, count), replace=False)
    err_scipy = err_batch = 0.0
    for i in sample:
        ref = reference(*args[i])
        err_scipy = max(err_scipy, float(abs(p_scipy[i] - ref) / ref))
        err_batch = max(err_batch, float(abs(p_batch[i] - ref) / ref))

    us_scipy = best_scipy / count * 1e6
    us_batch = best_batch / count * 1e6
    print(f"cases: {count} (k = 1..3, N = k+1..k+27, random rates, missions 1-10 years)")
    print(f"P(loss) range: {p_batch.min():.2e} .. {p_batch.max():.2e}")
    print(f"one by one, scipy.linalg.expm:          {us_scipy:8.2f} µs/layout")
    print(f"batch, p_loss_group_mixed:             {us_batch:8.2f} µs/layout")
    print(f"throughput ratio (batch / one by one): {us_scipy / us_batch:8.1f}x")
    print(
        f"max relative difference batch vs one by one (all cases): "
        f"{np.max(np.abs(p_batch / p_scipy - 1)):.1e}"
    )
    print(
        f"max relative error vs mpmath (50 digits, {len(sample)} cases): "
        f"one by one {err_scipy:.1e}, batch {err_batch:.1e}"
    )


if __name__ == "__main__":
    main()
