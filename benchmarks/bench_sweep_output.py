"""A large sweep as the user runs it: is writing the rows cheaper than computing them?

``planner sweep --vary drive.arr=1%..5%:100 --parity 1..5 --group-sizes 2..400 --all``
evaluates 198,000 layout-and-value cases. Each case below is a fresh process, timed whole
(start-up included) with its peak memory (``ru_maxrss``):

* compute: the same process up to the finished report (``planner.analysis.sweep``), no
  output: the baseline, measured in the same run;
* csv / json: ``planner sweep ... --format csv|json --output FILE``, the whole command.

It prints, per format, the output's cost (whole command minus compute) as a ratio to the
computation's, and the extra memory. Goal: output no more than the computation (ratio
<= 1), and memory that does not grow with the rows written. Each process has a timeout;
a timeout or a failure exits 1.

Run: .venv/bin/python benchmarks/bench_sweep_output.py [--group-sizes 2..400] [--count 100]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLANNER = ROOT / ".venv" / "bin" / "planner"
TIMEOUT_SECONDS = 600

COMPUTE = """
import sys
from planner.analysis.sweep import sweep_report
from planner.cli.ranges import parse_int_list, parse_vary
from planner.scenario import load_default_scenario

vary, parities, sizes = sys.argv[1:4]
report = sweep_report(
    load_default_scenario(),
    parse_int_list(parities, "--parity", 1, 6),
    parse_int_list(sizes, "--group-sizes", 2, 1000),
    True,
    parse_vary(vary),
    False,
)
print(len(report))
"""


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MB) of ``command`` in a fresh process."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        out, err = process.communicate(timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        raise SystemExit(f"timed out after {TIMEOUT_SECONDS} s: {' '.join(command)}") from None
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{err}")
    # ru_maxrss of the children is the largest so far: run the cases smallest first.
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    del out
    return seconds, peak_mb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group-sizes", default="2..400")
    parser.add_argument("--parity", default="1..5")
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    if not PLANNER.exists():
        print(f"skipped: {PLANNER} does not exist yet (install the package: pip install -e .)")
        return 0
    vary = f"drive.arr=1%..5%:{args.count}"
    options = ["--vary", vary, "--parity", args.parity, "--group-sizes", args.group_sizes]
    compute_s, compute_mb = run(
        [sys.executable, "-c", COMPUTE, vary, args.parity, args.group_sizes]
    )
    rows = args.count * sum(
        1
        for k in range(int(args.parity.split("..")[0]), int(args.parity.split("..")[-1]) + 1)
        for n in range(
            int(args.group_sizes.split("..")[0]), int(args.group_sizes.split("..")[-1]) + 1
        )
        if n > k
    )
    print(f"planner sweep {' '.join(options)} --all: {rows:,} rows")
    print(f"compute only (process up to the report): {compute_s:6.2f} s, peak {compute_mb:5.0f} MB")
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("csv", "json"):
            target = Path(folder) / f"sweep.{kind}"
            seconds, peak = run(
                [str(PLANNER), "sweep", *options, "--all", "-f", kind, "-o", str(target)]
            )
            size_mb = target.stat().st_size / 1e6
            ratio = (seconds - compute_s) / compute_s
            worst = max(worst, ratio)
            print(
                f"{kind:>4}, whole command: {seconds:6.2f} s, peak {peak:5.0f} MB "
                f"({size_mb:.0f} MB written); output / compute = {ratio:.2f}, "
                f"extra memory {peak - compute_mb:+.0f} MB"
            )
            os.unlink(target)
    print(f"worst output / compute ratio: {worst:.2f} (goal <= 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
