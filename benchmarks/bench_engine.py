"""Evaluations per second of the numeric engine, as ratios against a naive baseline.

Baseline (measured in the same run, interleaved with the engine): build the generator
inline with a Python loop over the states and call scipy.linalg.expm, the obvious way to
write p_loss from the paper. The mttdl_hours rows use the same baseline: the time of one
naive p_loss evaluation of the same group.

Run: .venv/bin/python benchmarks/bench_engine.py   (about 10-20 s)
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.linalg import expm

from planner.core.markov.rates import PAPER_RATES
from planner.core.markov.transient import mttdl_hours, p_loss_group

MISSION_HOURS = 5 * 8760.0
BUDGET_SECONDS = 0.8  # per case, engine and baseline together
REPEATS = 15


def naive_p_loss(parity: int, drives: int) -> float:
    """p_loss written directly from the rules, without planner's machinery."""
    lop = PAPER_RATES.op_failures_per_hour
    lld = PAPER_RATES.latent_defects_per_hour
    mop = 1 / PAPER_RATES.rebuild_hours
    msc = 1 / PAPER_RATES.scrub_hours
    states = [(f, lat) for f in range(parity + 1) for lat in (0, 1) if f + lat <= parity]
    index = {s: i for i, s in enumerate(states)}
    loss = len(states)
    q = np.zeros((loss + 1, loss + 1))
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
    q[np.diag_indices(loss + 1)] = -q.sum(axis=1)
    return float(expm(q * MISSION_HOURS)[0, -1])


def microseconds_per_call(
    engine: Callable[[], object], baseline: Callable[[], object]
) -> tuple[float, float]:
    """Minimum over many short interleaved batches, robust to other load on the machine."""
    engine()
    baseline()
    start = time.perf_counter()
    calls = 0
    while time.perf_counter() - start < 0.02:
        engine()
        calls += 1
    batch = max(1, int(calls * BUDGET_SECONDS / (2 * REPEATS) / 0.02))
    best = [float("inf"), float("inf")]
    for _ in range(REPEATS):
        for slot, func in enumerate((engine, baseline)):
            t0 = time.perf_counter()
            for _ in range(batch):
                func()
            best[slot] = min(best[slot], (time.perf_counter() - t0) / batch)
    return best[0] * 1e6, best[1] * 1e6


def main() -> None:
    print(f"{'case':<28}{'µs/eval':>10}{'evals/s':>11}{'baseline µs':>13}{'ratio':>8}")
    for parity in (1, 2, 3):
        for drives in (8, 16):
            engine, naive = microseconds_per_call(
                lambda p=parity, n=drives: p_loss_group(p, n, PAPER_RATES, MISSION_HOURS),
                lambda p=parity, n=drives: naive_p_loss(p, n),
            )
            print(
                f"{f'p_loss_group k={parity} N={drives}':<28}{engine:>10.1f}"
                f"{1e6 / engine:>11.0f}{naive:>13.1f}{naive / engine:>8.2f}"
            )
    for parity in (1, 2, 3):
        drives = 16
        engine, naive = microseconds_per_call(
            lambda p=parity, n=drives: mttdl_hours(p, n, PAPER_RATES),
            lambda p=parity, n=drives: naive_p_loss(p, n),
        )
        print(
            f"{f'mttdl_hours k={parity} N={drives}':<28}{engine:>10.1f}"
            f"{1e6 / engine:>11.0f}{naive:>13.1f}{naive / engine:>8.2f}"
        )
    print("ratio = baseline time / engine time (> 1: the engine is faster)")


if __name__ == "__main__":
    main()
