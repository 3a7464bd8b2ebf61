"""How long ``planner recommend`` takes for 10,000 candidate layouts (issue 12: under 1 s).

The candidates: parity 1..8 in every group size from 3 to 1,000 drives (7,980 layouts)
and declustered pools (dRAID 1..3 over 8 to 255 children, several stripe widths and
spares) up to 10,000 in all, for 400 TB of 20 TB NL-SAS drives (the catalogue's
spec sheet, busy rebuilds) and a 1e-4 target.

Measured in the same run:
* the search in process (``planner.analysis.recommend.recommendation``): sizing, the
  batched exact P(loss) and its split, costing, ranking and the front, minimum of 5 runs;
* the baseline: the same candidates one at a time through the single-layout path
  (``planner.core.markov.transient.p_loss_group``, what ``planner evaluate`` calls per layout), on
  a sample of 500 scaled to 10,000;
* the whole process ``planner recommend FILE -f json`` (what the user waits for), median of
  3, with a 120 s timeout.

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_recommend.py   (about 20 s)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from planner.analysis.recommend import recommendation
from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.markov.transient import p_loss_group
from planner.scenario import Scenario, load_scenario

CANDIDATES = 10_000
TIMEOUT_SECONDS = 120
SCENARIO = """\
name: bench recommend
mission_years: 5
drive:
  model: nl-sas-20tb
  arr: 1%
restore:
  load: busy
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 12
target:
  usable_tb: 400
  max_p_loss: 1e-4
search:
  parity: [1, 2, 3, 4, 5, 6, 7, 8]
  group_sizes: [3, 1000]
  declustered: true
  draid_data: [2, 4, 6, 8, 10, 12, 16, 24]
  draid_children: {children}
  draid_spares: [0, 1, 2, 3]
"""


def candidates() -> list[Layout]:
    layouts = [
        Layout(f"n+{k} {n}", None, k, n) for k in range(1, 9) for n in range(max(k + 1, 3), 1001)
    ]
    pools = [
        Layout(f"draid{k}:{d}d:{c}c:{s}s", f"draid{k}", k, c, Declustered(d, s))
        for c in range(8, 256)
        for k in (1, 2, 3)
        for d in (2, 4, 6, 8, 10, 12, 16, 24)
        for s in (0, 1, 2, 3)
        if d + k <= c - s
    ]
    return (layouts + pools)[:CANDIDATES]


def main() -> int:
    scenario = load_scenario_text(SCENARIO.format(children=list(range(8, 256))))
    layouts = candidates()
    assert len(layouts) == CANDIDATES, len(layouts)
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        report = recommendation(scenario, layouts)
        runs.append(time.perf_counter() - start)
    search = min(runs)
    rates = scenario.rates()
    sample = layouts[:: len(layouts) // 500][:500]
    start = time.perf_counter()
    for layout in sample:
        p_loss_group(layout.parity, layout.group_size, layout.chain_rates(rates), 43_800.0)
    one_by_one = (time.perf_counter() - start) / len(sample) * CANDIDATES
    print(f"{CANDIDATES:,} candidates, in process: {search:.3f} s (min of 5)")
    print(
        f"baseline, one layout at a time (500 scaled): {one_by_one:.2f} s "
        f"-> x{one_by_one / search:.1f} faster"
    )
    print(
        f"recommended: {report.top.layout.label if report.top else None}; "
        f"front {len(report.front)}, meeting {len(report.meeting):,}"
    )
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "bench.yaml"
        path.write_text(
            SCENARIO.format(children="[8, 16, 24, 32, 48, 64, 96, 128, 192, 255]"),
            encoding="utf-8",
        )
        count = recommendation(load_scenario(path)).evaluated
        times = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "planner", "recommend", str(path), "-f", "json"],
                check=True,
                capture_output=True,
                timeout=TIMEOUT_SECONDS,
            )
            times.append(time.perf_counter() - start)
        print(
            f"whole process, planner recommend -f json over {count:,} candidates: "
            f"{statistics.median(times):.2f} s (median of 3)"
        )
    return 0


def load_scenario_text(text: str) -> Scenario:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "bench.yaml"
        path.write_text(text, encoding="utf-8")
        return load_scenario(path)


if __name__ == "__main__":
    sys.exit(main())
