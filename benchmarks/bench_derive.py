"""Whole-process wall-clock of `planner derive --parity k`, first run and cached, k = 2..6.

What the user waits for: the installed `planner` script, started fresh, printing the n+k
model. "first" runs with an empty cache directory (XDG_CACHE_HOME set to a new temporary
directory: the exact MTTDL is derived and stored), "cached" is the median of RUNS later
runs reading it back. The baseline is `planner --version` in the same run. Every run has a
TIMEOUT (before the banded elimination and the cache, k = 4/5/6 took 8.5/26.5/69 s every
time). k = 7 and 8 print the leading order only unless --force; `--force` is timed with
`--with-force` (minutes).

Run: .venv/bin/python benchmarks/bench_derive.py [--with-force]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLANNER = ROOT / ".venv" / "bin" / "planner"
PARITIES = (2, 3, 4, 5, 6)
RUNS = 5
TIMEOUT_SECONDS = 600.0


def seconds(command: list[str], cache: str) -> tuple[float | None, int]:
    """Wall-clock of one run of ``command`` with XDG_CACHE_HOME=``cache``; None on timeout."""
    environment = {**os.environ, "XDG_CACHE_HOME": cache}
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            cwd=ROOT,
            env=environment,
            check=False,
            timeout=TIMEOUT_SECONDS,
        )
    except subprocess.TimeoutExpired:
        return None, -1
    return time.perf_counter() - start, done.returncode


def main() -> int:
    if not PLANNER.exists():
        print(f"skipped: {PLANNER} does not exist yet (install the package: pip install -e .)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        base = [seconds([str(PLANNER), "--version"], tmp)[0] for _ in range(RUNS + 1)][1:]
        baseline = statistics.median(t for t in base if t is not None)
        print(f"{'command':<34}{'first s':>9}{'cached s':>10}{'cached x --version':>20}")
        print(f"{'planner --version (baseline)':<34}{'':>9}{baseline:>10.2f}{1.0:>20.2f}")
        parities = [*PARITIES, *((7, 8) if "--with-force" in sys.argv else ())]
        failed = False
        for k in parities:
            cache = tempfile.mkdtemp(dir=tmp)
            command = [str(PLANNER), "derive", "--parity", str(k)]
            if k > 6:
                command.append("--force")
            first, code = seconds(command, cache)
            label = " ".join(command[1:])
            if first is None:
                print(f"{label:<34}{'timeout':>9}")
                failed = True
                continue
            cached = [seconds(command, cache)[0] for _ in range(RUNS)]
            median = statistics.median(t for t in cached if t is not None)
            failed |= code != 0
            print(f"{label:<34}{first:>9.2f}{median:>10.2f}{median / baseline:>20.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
