"""Rare-event simulation against plain Monte Carlo on the paper's RAID-DP group.

Case: RAID-DP (k = 2) group of 16 drives, Elerath and Pecht (2009) Weibull preset, 5-year
mission. The conditional estimator runs until +/-10% at 95% confidence; plain sampling then
runs on the same case for the same wall time (the baseline, measured in the same run). The
speed-up is the work-normalised variance ratio

    (variance of plain per trial x seconds per plain trial)
    / (variance of conditional per trial x seconds per conditional trial),

with the plain variance taken as p (1 - p) at the conditional estimate p (so that it is
defined even when plain sampling saw no loss). Triple parity is timed the same way.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_simulate.py [--plain-seconds S]``.
"""

from __future__ import annotations

import argparse
import math
import os
import time

from planner.core.distributions import ELERATH_2009
from planner.core.simulate import SimulationResult, simulate_group

FIVE_YEARS_HOURS = 5 * 8_760.0
Z95 = 1.959963984540054


def timed(**kwargs: object) -> tuple[SimulationResult, float]:
    start = time.perf_counter()
    result = simulate_group(**kwargs)  # type: ignore[arg-type]
    return result, time.perf_counter() - start


def show(label: str, result: SimulationResult, seconds: float) -> None:
    print(
        f"  {label:<12} p = {result.p_loss_group:.3e}  95% CI [{result.ci95_low:.3e}, "
        f"{result.ci95_high:.3e}]  +/-{100 * result.rel_error:.1f}%  "
        f"{result.trials:>9,} trials  {seconds:6.2f} s  ({result.hits:,} contributing)"
    )


def bench(name: str, parity: int, drives: int, plain_seconds: float | None, seed: int) -> None:
    print(f"{name}: {drives} drives, k = {parity}, Elerath 2009, 5 years")
    base = {
        "parity": parity,
        "drives": drives,
        "distributions": ELERATH_2009,
        "mission_hours": FIVE_YEARS_HOURS,
    }
    rare, rare_s = timed(**base, method="conditional", rel_error=0.1, batch_trials=2_000, seed=seed)
    show("conditional", rare, rare_s)
    budget = rare_s if plain_seconds is None else plain_seconds
    plain, plain_s = timed(
        **base, method="plain", time_budget_seconds=budget, batch_trials=5_000, seed=seed
    )
    show("plain", plain, plain_s)

    p = rare.p_loss_group
    var_plain = p * (1 - p)
    var_rare = rare.std_error**2 * rare.trials
    s_plain, s_rare = plain_s / plain.trials, rare_s / rare.trials
    variance_reduction = var_plain / var_rare
    time_ratio = s_plain / s_rare
    plain_needed_s = var_plain * (Z95 / (0.1 * p)) ** 2 * s_plain
    plain_rel_same_time = Z95 * math.sqrt(var_plain / plain.trials) / p
    print(
        f"  variance reduction per trial x{variance_reduction:,.0f}, cost per trial "
        f"x{1 / time_ratio:.2f}  => speed-up x{variance_reduction * time_ratio:,.0f}"
    )
    print(
        f"  plain in the same time: +/-{100 * plain_rel_same_time:.0f}% expected "
        f"(measured +/-{100 * plain.rel_error:.0f}%); plain would need "
        f"~{plain_needed_s / 60:,.0f} min for +/-10%"
    )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain-seconds", type=float, default=None, help="plain wall time (s)")
    parser.add_argument("--seed", type=int, default=2009)
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}")
    # Warm-up: imports (scipy.stats for the plain interval) and first-touch allocations.
    for method in ("plain", "conditional"):
        simulate_group(2, 16, ELERATH_2009, FIVE_YEARS_HOURS, method=method, trials=500, seed=0)
    bench("RAID-DP 16", 2, 16, args.plain_seconds, args.seed)
    bench("Triple parity 16", 3, 16, args.plain_seconds, args.seed)


if __name__ == "__main__":
    main()
