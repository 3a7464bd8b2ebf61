"""Cold start-up of the installed `planner` script, against `python -c pass` in the same run.

Median of 5 runs after one warm-up, each a fresh subprocess. Skips with a message while
.venv/bin/planner does not exist.

Run: .venv/bin/python benchmarks/bench_startup.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLANNER = ROOT / ".venv" / "bin" / "planner"
SCENARIO = ROOT / "scenarios" / "ns3574-table4.yaml"
RUNS = 5


def median_seconds(command: list[str]) -> tuple[float, int]:
    """Median wall-clock of ``command`` over RUNS runs after one warm-up; last exit code."""
    subprocess.run(command, capture_output=True, cwd=ROOT, check=False)
    times = []
    code = 0
    for _ in range(RUNS):
        start = time.perf_counter()
        code = subprocess.run(command, capture_output=True, cwd=ROOT, check=False).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times), code


def main() -> int:
    if not PLANNER.exists():
        print(f"skipped: {PLANNER} does not exist yet (install the package: pip install -e .)")
        return 0
    baseline, _ = median_seconds([sys.executable, "-c", "pass"])
    cases = [("planner --help", [str(PLANNER), "--help"])]
    if SCENARIO.exists():
        cases.append(
            (f"planner evaluate {SCENARIO.name}", [str(PLANNER), "evaluate", str(SCENARIO)])
        )
    else:
        print(f"note: {SCENARIO} missing; `planner evaluate` not measured")
    print(f"{'command':<40}{'median ms':>11}{'x python -c pass':>18}{'exit':>6}")
    print(f"{'python -c pass (baseline)':<40}{baseline * 1e3:>11.1f}{1.0:>18.2f}{0:>6}")
    for label, command in cases:
        seconds, code = median_seconds(command)
        print(f"{label:<40}{seconds * 1e3:>11.1f}{seconds / baseline:>18.2f}{code:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
