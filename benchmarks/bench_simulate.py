"""Time to +/-10% of the rare-event simulator, and its speed-up over plain Monte Carlo.

Cases, all under the Elerath and Pecht (2009) Weibull preset over 5 years: RAID 5 of 8,
RAID-DP (k = 2) of 16 and triple parity of 16. For each, ``simulate_group(...,
rel_error=0.1)`` (the default method) runs with ``--seeds`` seeds; the table gives the median
wall time and trials to +/-10% at 95%. Run it on two checkouts to compare estimators
(``PYTHONPATH=/path/to/other/checkout``): only the public ``simulate_group`` is used (with
its parameter object ``GroupSimulation`` where the checkout has one).

The baseline measured in the same run is plain sampling on the same case for the same wall
time; the speed-up is the work-normalised variance ratio

    (variance of plain per trial x seconds per plain trial)
    / (variance of the estimator per trial x seconds per trial),

with the plain variance taken as p (1 - p) at the estimate p (defined even when plain
sampling saw no loss).

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_simulate.py [--seeds 5] [--timeout 120]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from planner.core.simulation.distributions import ELERATH_2009
from planner.core.simulation.result import SimulationResult
from planner.core.simulation.simulate import simulate_group

try:
    from planner.core.simulation.simulate import GroupSimulation
except ImportError:  # a checkout from before the parameter object: keyword arguments
    GroupSimulation = None  # type: ignore[assignment,misc]

FIVE_YEARS_HOURS = 5 * 8_760.0
CASES = (("RAID 5 of 8", 1, 8), ("RAID-DP 16", 2, 16), ("Triple parity 16", 3, 16))


def run(**kwargs: object) -> SimulationResult:
    """``simulate_group`` of the run ``kwargs`` describes, in either checkout's terms."""
    if GroupSimulation is None:
        return simulate_group(**kwargs)  # type: ignore[arg-type]
    return simulate_group(GroupSimulation(**kwargs))  # type: ignore[arg-type]


def timed(**kwargs: object) -> tuple[SimulationResult, float]:
    """Run ``simulate_group`` and return the result with its wall time (s)."""
    start = time.perf_counter()
    result = run(**kwargs)
    return result, time.perf_counter() - start


def bench(name: str, parity: int, drives: int, seeds: int, timeout: float) -> None:
    """Median time and trials to +/-10% over ``seeds`` seeds, and the plain baseline."""
    base = {
        "parity": parity,
        "drives": drives,
        "distributions": ELERATH_2009,
        "mission_hours": FIVE_YEARS_HOURS,
    }
    runs = [
        timed(**base, rel_error=0.1, time_budget_seconds=timeout, seed=2009 + s)
        for s in range(seeds)
    ]
    seconds = statistics.median(t for _, t in runs)
    trials = statistics.median(r.trials for r, _ in runs)
    reached = sum(r.rel_error <= 0.1 for r, _ in runs)
    result, spent = runs[0]
    plain, plain_s = timed(
        **base, method="plain", time_budget_seconds=max(spent, 0.5), batch_trials=5_000, seed=1
    )
    p = result.p_loss_group
    var_rare = result.std_error**2 * result.trials
    speed_up = (p * (1 - p) * plain_s / plain.trials) / (var_rare * spent / result.trials)
    print(
        f"{name:<17} k={parity} N={drives:<3} method {result.method:<11} p = {p:.3e}  "
        f"median {seconds:6.2f} s, {trials:>9,.0f} trials to ±10% ({reached}/{seeds} reached); "
        f"x{speed_up:,.0f} vs plain"
    )


def main() -> None:
    """Print one line per case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120.0, help="per run (s)")
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}")
    # Warm-up: imports and first-touch allocations.
    run(
        parity=2,
        drives=16,
        distributions=ELERATH_2009,
        mission_hours=FIVE_YEARS_HOURS,
        trials=500,
        seed=0,
    )
    for name, parity, drives in CASES:
        bench(name, parity, drives, args.seeds, args.timeout)


if __name__ == "__main__":
    main()
