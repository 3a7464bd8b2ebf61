"""Whole-process wall-clock of `planner sensitivity` for a parity-k baseline, k = 2, 4, 6, 8.

What the user waits for: the installed `planner` script, started fresh, printing the tornado
of a scenario whose baseline layout has k parity drives (groups of k + 8 drives, the paper's
rates). The baseline is `planner --version` (interpreter and CLI start-up) measured in the
same run; the ratio says how much the analysis adds to the start-up, and `planner
evaluate` of the same scenario shows what loading and evaluating it alone costs. Median of RUNS runs
after one warm-up; each run has a TIMEOUT and a run that exceeds it is reported as such
(before the numeric rate derivatives, k = 6 took 48 s and k = 8 over 150 s).

Run: .venv/bin/python benchmarks/bench_sensitivity.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLANNER = ROOT / ".venv" / "bin" / "planner"
PARITIES = (2, 4, 6, 8)
RUNS = 5
TIMEOUT_SECONDS = 120.0

SCENARIO = """\
name: parity {k} baseline
mission_years: 5
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
restore:
  rebuild_hours: 12
  scrub_hours: 168
aggregate:
  data_disks: 42
layouts:
  - parity: {k}
    group_size: {n}
"""


def median_seconds(command: list[str]) -> tuple[float | None, int]:
    """Median wall-clock of ``command`` over RUNS runs after one warm-up; last exit code.

    None when a run exceeds :data:`TIMEOUT_SECONDS`.
    """
    times = []
    code = 0
    for run in range(RUNS + 1):
        start = time.perf_counter()
        try:
            done = subprocess.run(
                command, capture_output=True, cwd=ROOT, check=False, timeout=TIMEOUT_SECONDS
            )
        except subprocess.TimeoutExpired:
            return None, -1
        if run:
            times.append(time.perf_counter() - start)
        code = done.returncode
    return statistics.median(times), code


def main() -> int:
    if not PLANNER.exists():
        print(f"skipped: {PLANNER} does not exist yet (install the package: pip install -e .)")
        return 0
    baseline, _ = median_seconds([str(PLANNER), "--version"])
    assert baseline is not None
    print(f"{'command':<46}{'median ms':>11}{'x planner --version':>21}{'exit':>6}")
    print(f"{'planner --version (baseline)':<46}{baseline * 1e3:>11.1f}{1.0:>21.2f}{0:>6}")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for k in PARITIES:
            path = Path(tmp) / f"parity-{k}.yaml"
            path.write_text(SCENARIO.format(k=k, n=k + 8), encoding="utf-8")
            if k == PARITIES[0]:  # what loading and evaluating the scenario alone costs
                evaluate, _ = median_seconds([str(PLANNER), "evaluate", str(path)])
                assert evaluate is not None
                label = f"planner evaluate (n+{k}, reference)"
                print(f"{label:<46}{evaluate * 1e3:>11.1f}{evaluate / baseline:>21.2f}{0:>6}")
            label = f"planner sensitivity (n+{k}, groups of {k + 8})"
            seconds, code = median_seconds([str(PLANNER), "sensitivity", str(path)])
            if seconds is None:
                print(f"{label:<46}{'> ' + str(int(TIMEOUT_SECONDS * 1e3)):>11}{'timeout':>21}")
                failed = True
                continue
            failed |= code != 0
            print(f"{label:<46}{seconds * 1e3:>11.1f}{seconds / baseline:>21.2f}{code:>6}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
