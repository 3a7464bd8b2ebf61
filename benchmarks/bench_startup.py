"""Cold start-up of the installed `planner` script, against `python -c pass` in the same run.

Each command runs as a fresh subprocess, RUNS times, the commands taking turns (so a change
in the machine's load hits them alike); the median is reported, with the ratio to
``python -c pass``. One warm-up run of each first.

Bytecode: an installed planner runs from cached bytecode (``__pycache__``). When the
environment sets ``PYTHONDONTWRITEBYTECODE`` (this project's CI machine does), every run
would compile planner's ~18,000 lines from source, which is not what a user waits for; so
the children run with bytecode cached in a temporary ``PYTHONPYCACHEPREFIX`` (written by
the warm-up, removed at the end). ``planner evaluate`` is also measured with
``PYTHONDONTWRITEBYTECODE=1`` and no prefix: planner compiled from source at each run (when
no ``planner/**/__pycache__`` exists), for comparison with figures taken that way.

Run: .venv/bin/python benchmarks/bench_startup.py
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
SCENARIO = ROOT / "scenarios" / "ns3574-table4.yaml"
RUNS = 9
TIMEOUT_SECONDS = 60


def run_seconds(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall-clock seconds and exit code of one run of ``command``."""
    start = time.perf_counter()
    code = subprocess.run(
        command, capture_output=True, cwd=ROOT, check=False, env=env, timeout=TIMEOUT_SECONDS
    ).returncode
    return time.perf_counter() - start, code


def main() -> int:
    if not PLANNER.exists():
        print(f"skipped: {PLANNER} does not exist yet (install the package: pip install -e .)")
        return 0
    with tempfile.TemporaryDirectory(prefix="planner-bench-pyc-") as pycache:
        cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached["PYTHONPYCACHEPREFIX"] = pycache
        # planner's own modules compiled at every run, as long as no __pycache__ of theirs
        # exists next to them (the default prefix; nothing is written)
        from_source = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
        from_source["PYTHONDONTWRITEBYTECODE"] = "1"
        stale = any((ROOT / "planner").rglob("__pycache__/*.pyc"))
        cases: list[tuple[str, list[str], dict[str, str]]] = [
            ("python -c pass (baseline)", [sys.executable, "-c", "pass"], cached),
            ("planner --help", [str(PLANNER), "--help"], cached),
        ]
        if SCENARIO.exists():
            evaluate = [str(PLANNER), "evaluate", str(SCENARIO)]
            cases.append((f"planner evaluate {SCENARIO.name}", evaluate, cached))
            label = "  the same, " + ("no bytecode written" if stale else "compiled from source")
            cases.append((label, evaluate, from_source))
        else:
            print(f"note: {SCENARIO} missing; `planner evaluate` not measured")
        for _, command, env in cases:  # warm-up; writes the bytecode
            run_seconds(command, env)
        times: list[list[float]] = [[] for _ in cases]
        codes = [0] * len(cases)
        for _ in range(RUNS):
            for i, (_, command, env) in enumerate(cases):
                seconds, codes[i] = run_seconds(command, env)
                times[i].append(seconds)
    medians = [statistics.median(t) for t in times]
    print(f"{'command':<44}{'median ms':>11}{'x python -c pass':>18}{'exit':>6}")
    for (label, _, _), median, code in zip(cases, medians, codes, strict=True):
        print(f"{label:<44}{median * 1e3:>11.1f}{median / medians[0]:>18.2f}{code:>6}")
    if os.getloadavg()[0] > 1.0:
        print(f"note: load average {os.getloadavg()[0]:.1f}: other work shares the machine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
