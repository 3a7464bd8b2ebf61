"""Costing many candidate layouts at once: cost_of_ownership on arrays against a loop.

What a search (``recommend``) waits for when it prices its candidates: 10,000 random
aggregates (total drives and groups, usable TB) costed by one call of
planner.core.arrays.cost.cost_of_ownership on arrays, against the baseline of the same
function called once per candidate (plain numbers) in a Python loop, in the same run.
Timings are the minimum over interleaved repeats (robust to other load on the machine);
the two results are checked equal element by element. The whole run stops after TIMEOUT_S seconds.

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_cost.py [CANDIDATES]   (a few seconds)
"""

from __future__ import annotations

import sys
import time

import numpy as np

from planner.core.arrays.cost import CostPrices, cost_of_ownership

REPEATS = 5
TIMEOUT_S = 120.0
PRICES = CostPrices(drive_price=400.0, drive_watts=8.0, energy_per_kwh=0.15, per_group_cost=1500.0)
RATE = 0.01 / 8760.0
MISSION_HOURS = 5 * 8760.0


def main(count: int) -> int:
    rng = np.random.default_rng(12)
    drives = rng.integers(3, 5000, count)
    groups = np.maximum(1, drives // rng.integers(3, 31, count))
    usable = drives * 14.0

    def vectorised() -> np.ndarray:
        costs = cost_of_ownership(
            drives,
            groups,
            prices=PRICES,
            op_failures_per_hour=RATE,
            mission_hours=MISSION_HOURS,
            usable_tb=usable,
        )
        return costs.total_cost

    def loop() -> np.ndarray:
        return np.array(
            [
                cost_of_ownership(
                    int(d),
                    int(g),
                    prices=PRICES,
                    op_failures_per_hour=RATE,
                    mission_hours=MISSION_HOURS,
                    usable_tb=float(u),
                )
                .at(0)
                .total_cost
                for d, g, u in zip(drives, groups, usable, strict=True)
            ]
        )

    start = time.perf_counter()
    best = {"vectorised": float("inf"), "loop": float("inf")}
    results = {}
    for _ in range(REPEATS):
        for name, function in (("vectorised", vectorised), ("loop", loop)):
            began = time.perf_counter()
            results[name] = function()
            best[name] = min(best[name], time.perf_counter() - began)
            if time.perf_counter() - start > TIMEOUT_S:
                print(f"bench_cost: timed out after {TIMEOUT_S:g} s", file=sys.stderr)
                return 1
    if not np.allclose(results["vectorised"], results["loop"], rtol=1e-15, atol=0):
        print("bench_cost: the vectorised and looped costs differ", file=sys.stderr)
        return 1
    print(f"{count:,} candidates, minimum of {REPEATS} interleaved repeats")
    print(f"  cost_of_ownership on arrays: {best['vectorised'] * 1e3:8.3f} ms")
    print(f"  one candidate at a time:     {best['loop'] * 1e3:8.3f} ms (baseline)")
    print(f"  ratio: {best['loop'] / best['vectorised']:.0f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
