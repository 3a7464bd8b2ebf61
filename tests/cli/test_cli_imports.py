"""What each command imports: heavy libraries load only where the command needs them.

Start-up is what a user waits for on every command (benchmarks/README.md, "Start-up":
``bench_startup.py``).
Each case runs the Typer app in a fresh interpreter and lists the heavy top-level packages
left in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = str(ROOT / "scenarios" / "ns3574-table4.yaml")
HEAVY = (
    "autograd",
    "lifelines",
    "matplotlib",
    "mpmath",
    "numpy",
    "numpy.ma",  # np.unique imports it: ~30 ms of start-up no command needs
    "pandas",
    "plotext",
    "pydantic",
    "ruamel",
    "scipy",
    "sympy",
    "textual",
)


def heavy_modules_after(args: list[str]) -> set[str]:
    """Heavy packages imported by ``planner ARGS`` (output discarded), in a new process."""
    code = (
        "import io, json, sys\n"
        "from planner.cli import app\n"
        "sys.stdout = io.StringIO()\n"
        "try:\n"
        f"    app({args!r}, prog_name='planner')\n"
        "except SystemExit as stop:\n"
        "    code = stop.code\n"
        "sys.stdout = sys.__stdout__\n"
        f"print(json.dumps([code, sorted(m for m in {HEAVY!r} if m in sys.modules)]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=ROOT,
    )
    exit_code, loaded = json.loads(result.stdout.splitlines()[-1])
    assert exit_code in (0, None), result.stderr
    return set(loaded)


def test_help_and_version_import_no_heavy_library() -> None:
    assert heavy_modules_after(["--help"]) == set()
    assert heavy_modules_after(["--version"]) == set()


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", SCENARIO],
        ["evaluate", SCENARIO, "--format", "json"],
        ["sensitivity", SCENARIO],
        ["sweep", "--parity", "1,2"],
        ["validate", SCENARIO],
    ],
)
def test_report_commands_need_no_scipy_sympy_or_tui(args: list[str]) -> None:
    loaded = heavy_modules_after(args)  # exit code 0 checked there: the command ran
    assert not loaded & {"scipy", "sympy", "mpmath", "textual", "plotext", "matplotlib"}
    assert not loaded & {"lifelines", "pandas", "autograd", "numpy.ma"}
