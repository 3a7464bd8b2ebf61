"""Coverage of the exact Markov value by runs that ``rel_error`` stops, over many seeds.

For layouts of ``scenarios/today-20tb-nl-sas.yaml`` (constant rates, so the simulator runs
the exact chain and an honest 95% interval holds its P(loss) in 95% of runs), ``--seeds``
runs each stop at ±10% (the default rule of ``planner simulate`` and ``compare-methods``)
twice from the same trials: with the floor of ``MIN_TRIALS_REL_ERROR`` trials before the
rule may stop a weighted run (``after``), and without it (``before``: ``min_trials=0``, the
rule as it was). The table gives, per rule, the runs whose interval holds the exact value,
their mean estimate over it, the mean trials, and the same by the trial count each run
stopped at.

Each run is :func:`planner.core.simulation.simulate.run_until_stopped`, the stopping rule
and interval of ``simulate_group``, fed by its own row of trials; the rows of a block of
runs come from one vectorised batch of :func:`trial_batches` (the trials of a batch are
independent, ``tests/coverage.py`` says why), and a run that needs more than its row draws
the rest afresh. So a run is a ``simulate_group`` run, its seed aside, at a fraction of the
NumPy steps.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/coverage_rel_error.py [--seeds 200]
[--layout LABEL ...]`` (~2 min per layout at 200 seeds on 2 cores; the pool's row of
15,500 trials is most of it).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from planner.analysis.simulation import SimulationRequest
from planner.core.simulation.estimate import MIN_TRIALS_REL_ERROR
from planner.core.simulation.kernel import FloatArray
from planner.core.simulation.simulate import (
    GroupSimulation,
    run_until_stopped,
    trial_batches,
)
from planner.scenario import load_scenario

SCENARIO = Path("scenarios/today-20tb-nl-sas.yaml")
LAYOUTS = ("draid2:8d:48c:2s", "RAID 6 (10+2)", "RAID 10", "triple parity (12+3)")
ROW_TRIALS = 15_500
"""Trials drawn per run in advance: the first five batches (500, 1,000, ... 8,000)."""

BLOCK_TRIALS = 80_000
"""Trials per vectorised batch."""


@dataclass
class Tally:
    """Runs of one rule: covering count, estimate over exact, trials, by stopping count."""

    runs: int = 0
    covering: int = 0
    ratio_sum: float = 0.0
    trials_sum: int = 0

    def add(self, covers: bool, ratio: float, trials: int) -> None:
        self.runs += 1
        self.covering += covers
        self.ratio_sum += ratio
        self.trials_sum += trials

    def line(self) -> str:
        share = self.covering / self.runs
        return (
            f"{self.covering}/{self.runs} cover ({100 * share:.1f}%), "
            f"mean estimate {self.ratio_sum / self.runs:.3f}x exact, "
            f"mean trials {self.trials_sum / self.runs:,.0f}"
        )


def feeder(row: FloatArray, more: Callable[[int], FloatArray]) -> Callable[[int], FloatArray]:
    """A batch function serving consecutive slices of ``row``, then fresh trials."""
    used = 0

    def batch(size: int) -> FloatArray:
        nonlocal used
        part = row[used : used + size]
        used += size
        if part.size < size:
            part = np.concatenate([part, more(size - part.size)])
        return part

    return batch


def study(label: str, seeds: int) -> None:
    scenario = load_scenario(SCENARIO)
    layout = next(lay for lay in scenario.core_layouts() if lay.label == label)
    request = SimulationRequest.of(scenario, layout)
    exact = request.p_loss_markov
    laws = layout.chain_distributions(request.distributions)
    after = GroupSimulation(
        layout.parity, layout.group_size, laws, request.mission_hours, rel_error=0.1, seed=7
    )
    rules = {"before": replace(after, min_trials=0), "after": after}
    method, batch = trial_batches(after, np.random.default_rng(after.seed))
    tallies = {name: Tally() for name in rules}
    by_stop: dict[str, dict[int, Tally]] = {name: defaultdict(Tally) for name in rules}
    start = time.perf_counter()
    per_block = max(1, BLOCK_TRIALS // ROW_TRIALS)
    for first in range(0, seeds, per_block):
        runs = min(per_block, seeds - first)
        for row in batch(runs * ROW_TRIALS).reshape(runs, ROW_TRIALS):
            for name, run in rules.items():
                result = run_until_stopped(run, method, feeder(row, batch))
                covers = result.ci95_low <= exact <= result.ci95_high
                ratio = result.p_loss_group / exact
                tallies[name].add(covers, ratio, result.trials)
                by_stop[name][result.trials].add(covers, ratio, result.trials)
    seconds = time.perf_counter() - start
    print(f"{label}: exact P(loss) {exact:.4g}, method {method.value}, ", end="")
    print(f"{seeds} runs, {seconds:.0f} s")
    for name in rules:
        print(f"  {name}: {tallies[name].line()}")
        for trials in sorted(by_stop[name]):
            print(f"    stopped at {trials:,}: {by_stop[name][trials].line()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200, help="runs per layout")
    parser.add_argument("--layout", action="append", help="a layout label (repeatable)")
    args = parser.parse_args()
    print(f"floor before a weighted run may stop at the target: {MIN_TRIALS_REL_ERROR:,} trials")
    for label in args.layout or LAYOUTS:
        study(label, args.seeds)


if __name__ == "__main__":
    main()
