"""End-to-end sweep speed: ``planner sweep`` of 23,000 layouts to JSON against a scipy loop.

The sweep is the whole command as a user runs it (a fresh process, start-up subtracted with
a tiny sweep run the same way): parity 1 to 4, group sizes 2 to 60, ``--all``, ARR from
0.5% to 5% in 100 steps, ``--format json`` read from a pipe. The baseline, measured in the
same run, is a plain Python loop of ``scipy.linalg.expm`` over the same 23,000 cases (the
generator built inline, P(loss) read from the exponential): what one would write without
planner. The ratio is throughput, baseline over sweep (> 1: planner is faster), one per
round, rounds taking turns; the median is printed last.

Each round also times the same big sweep written with ``-o`` (what a user saving a sweep
waits for: the file synced to disk and renamed into place) and sent by the shell to a file
(``> out.json``, planner writing to a file it did not open), each ratio printed beside,
and a process that writes the same JSON computing
nothing, read back the same way: the part of the pipe figure that no sweep can remove
(20 MB: the parent's reads, its decoding and its newline translation, ~0.09 s here).

Start-up is what a user's installed planner pays: bytecode cached (a temporary
``PYTHONPYCACHEPREFIX``, even where the environment sets ``PYTHONDONTWRITEBYTECODE``, as this
machine's does: otherwise every run compiles planner afresh and the start-up, subtracted,
varies by more than the sweep takes). Each round runs nine tiny and nine big sweeps in
turn and takes the median of the pairs' differences, so a drift or a burst of load on a
shared machine moves the figure less (start-up alone moved by 0.3 s from run to run, more
than the work it is subtracted from); the sweep's CPU time (all its threads) is printed
beside its wall time.

BLAS threads: the baseline's small exponentials run slower with a multi-threaded BLAS on a
busy machine (3 ms instead of 25 us a call with OpenBLAS on two shared cores), which would
flatter the ratio; so both sides run with ``--blas-threads`` (default 1) BLAS threads.
planner's own thread pool (one thread a CPU, :mod:`planner.core.markov.expm`) is not BLAS's.

Every process has a timeout; a failure or timeout exits 1.

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_sweep_vs_scipy.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TIMEOUT_SECONDS = 300
SCENARIO = """name: sweep speed
mission_years: 5
drive:
  arr: 1.9%
  latent_defects_per_hour: 0.000108
restore:
  rebuild_hours: 12
  scrub_hours: 168
aggregate:
  data_disks: 42
layouts:
  - parity: 2
    group_size: 9
"""
BIG = ["--parity", "1,2,3,4", "--group-sizes", "2..60", "--all", "--vary", "drive.arr=0.5%..5%:100"]
TINY = ["--parity", "1", "--group-sizes", "2..3", "--all", "--vary", "drive.arr=1%..2%:2"]


def planner_command() -> list[str]:
    """The ``planner`` script beside this interpreter, else ``python -m planner``."""
    script = Path(sys.executable).with_name("planner")
    return [str(script)] if script.exists() else [sys.executable, "-m", "planner"]


def run(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall seconds and stdout of ``command``; exits 1 on a failure or a timeout."""
    return run_timed(command, env)[0], run_timed.last_stdout


def run_timed(
    command: list[str], env: dict[str, str], redirect: Path | None = None
) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, every thread) of ``command``; see :func:`run`.

    ``redirect``: its standard output goes to this file, as the shell's ``> file`` sends it.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        with open(redirect or os.devnull, "wb") as sink:
            done = subprocess.run(
                command,
                stdout=subprocess.PIPE if redirect is None else sink,
                stderr=subprocess.PIPE,
                text=True,
                timeout=TIMEOUT_SECONDS,
                env=env,
                check=False,
            )
    except subprocess.TimeoutExpired:
        raise SystemExit(f"timed out after {TIMEOUT_SECONDS} s: {' '.join(command)}") from None
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-500:]}")
    run_timed.last_stdout = done.stdout
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


run_timed.last_stdout = ""  # type: ignore[attr-defined]


PAIRS = 9
"""Tiny and big sweeps run in turn, this many of each, per round."""


def paired_work(
    path: Path, env: dict[str, str], output: Path | None = None, redirect: bool = False
) -> tuple[float, float, float]:
    """The big sweep's wall and CPU seconds net of start-up, and the start-up's wall seconds.

    Tiny and big sweeps run in turn (:data:`PAIRS` of each), so a drift of the machine's
    speed (start-up alone moved by 0.3 s from run to run here) reaches both alike; the
    figures are the medians of the pairs' differences. ``output``: both write their JSON
    there (``-o``) instead of to the pipe this benchmark reads; with ``redirect``, their
    standard output goes to it, as ``> output`` sends it.
    """
    to_file = [] if output is None or redirect else ["-o", str(output)]
    tiny = [*planner_command(), "sweep", str(path), *TINY, "--format", "json", *to_file]
    big = [*planner_command(), "sweep", str(path), *BIG, "--format", "json", *to_file]
    return paired(tiny, big, env, output if redirect else None)


def paired(
    tiny: list[str], big: list[str], env: dict[str, str], redirect: Path | None = None
) -> tuple[float, float, float]:
    """:func:`paired_work`'s medians for any two commands run in turn."""
    walls, cpus, startups = [], [], []
    for _ in range(PAIRS):
        small_wall, small_cpu = run_timed(tiny, env, redirect)
        big_wall, big_cpu = run_timed(big, env, redirect)
        walls.append(big_wall - small_wall)
        cpus.append(big_cpu - small_cpu)
        startups.append(small_wall)
    return statistics.median(walls), statistics.median(cpus), statistics.median(startups)


def transfer_seconds(json_file: Path, env: dict[str, str]) -> float:
    """What the pipe alone costs: a process that writes ``json_file``'s bytes, computing
    nothing, read back as the sweep is (net of one that writes a byte)."""
    write = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"
    empty = Path(json_file.parent) / "empty.json"
    empty.write_bytes(b"{}")
    command = [sys.executable, "-S", "-c", write]
    return paired([*command, str(empty)], [*command, str(json_file)], env)[0]


def scipy_loop_seconds() -> tuple[float, int]:
    """The baseline: one scipy.linalg.expm per case, the generator built inline."""
    import numpy as np
    from scipy.linalg import expm

    def generator(n: int, k: int, lop: float) -> np.ndarray:
        lld, mop, msc = 1.08e-4, 1 / 12, 1 / 168
        states = [(a, b) for a in range(k + 1) for b in (0, 1) if a + b <= k]
        index = {s: i for i, s in enumerate(states)}
        loss = len(states)
        q = np.zeros((loss + 1, loss + 1))
        for (a, b), i in index.items():
            q[i, index[(a + 1, b)] if a + 1 + b <= k else loss] += (n - a - b) * lop
            if b == 1:
                q[i, index[(a + 1, 0)]] += lop  # the drive holding the defect fails
            if b == 0 and a < k:
                q[i, index[(a, 1)]] += (n - a) * lld
            if a >= 1:
                q[i, index[(a - 1, b)]] += mop
            if b == 1 and a == 0:
                q[i, index[(0, 0)]] += msc
        q -= np.diag(q.sum(1))
        return q

    cases = [
        (n, k, arr / 8760)
        for k in (1, 2, 3, 4)
        for n in range(k + 1, 61)
        for arr in np.linspace(0.005, 0.05, 100)
    ]
    start = time.perf_counter()
    for n, k, lop in cases:
        expm(generator(n, k, lop) * 43800)[0, -1]
    return time.perf_counter() - start, len(cases)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--blas-threads", type=int, default=1)
    args = parser.parse_args()
    blas = str(args.blas_threads)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = blas  # before NumPy is imported, here and in the sweeps
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cache = tempfile.TemporaryDirectory()
    env["PYTHONPYCACHEPREFIX"] = cache.name  # bytecode cached, as an installed planner has it
    # -P: the current folder is not searched first, as it is not for the planner script
    where = run([sys.executable, "-P", "-c", "import planner; print(planner.__file__)"], env)[1]
    print(f"planner from {where.strip()}; BLAS threads {blas}; CPUs {os.cpu_count()}")
    ratios: dict[str, list[float]] = {"pipe": [], "file": [], "redirect": []}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sweep.yaml"
        path.write_text(SCENARIO, encoding="utf-8")
        command = [*planner_command(), "sweep", str(path), *BIG, "--format", "json"]
        text = run(command, env)[1]  # also warms the bytecode cache
        rows = len(json.loads(text)["rows"])
        saved = Path(folder) / "saved.json"
        saved.write_text(text, encoding="utf-8")
        for round_ in range(1, args.rounds + 1):
            net, net_cpu, startup = paired_work(path, env)
            to_file = paired_work(path, env, Path(folder) / "out.json")[0]
            redirected = paired_work(path, env, Path(folder) / "shell.json", redirect=True)[0]
            transfer = transfer_seconds(saved, env)
            baseline, cases = scipy_loop_seconds()
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            for name, seconds in (("pipe", net), ("file", to_file), ("redirect", redirected)):
                ratios[name].append(baseline / max(seconds, 1e-3) * (rows / cases))
            print(
                f"round {round_}: sweep of {rows} layouts to JSON read from a pipe {net:.3f} s "
                f"net of start-up (start-up {startup:.2f} s; CPU {net_cpu:.3f} s net), "
                f"written with -o {to_file:.3f} s, with > {redirected:.3f} s; "
                f"the {len(text) / 1e6:.0f} MB through the pipe alone {transfer:.3f} s; "
                f"scipy expm loop over {cases}: {baseline:.2f} s; "
                f"throughput ratio {ratios['pipe'][-1]:.1f}x (-o: {ratios['file'][-1]:.1f}x; "
                f">: {ratios['redirect'][-1]:.1f}x; load {load:.1f})"
            )
    print(
        f"median throughput ratio over {args.rounds} rounds: "
        f"{statistics.median(ratios['pipe']):.1f}x read from a pipe, "
        f"{statistics.median(ratios['file']):.1f}x written with -o, "
        f"{statistics.median(ratios['redirect']):.1f}x sent to a file with >"
    )
    cache.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
