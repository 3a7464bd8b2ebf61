"""What each command imports: heavy libraries load only where the command needs them.

Start-up is what a user waits for on every command (benchmarks/README.md, "Start-up":
``bench_startup.py``).
Each check runs the Typer app in a fresh interpreter and lists the heavy top-level packages
left in ``sys.modules`` after each command. The commands of one check share the
interpreter: packages only accumulate, so a package absent after the last command was
imported by none of them, and the first command after which a package shows is named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def heavy_modules_after(*commands: list[str]) -> list[set[str]]:
    """Heavy packages loaded after each of ``planner ARGS...`` in turn, in one new process.

    Output is discarded; every command must exit 0.
    """
    code = (
        "import io, json, sys\n"
        "from planner.cli import app\n"
        "seen = []\n"
        f"for args in {list(commands)!r}:\n"
        "    sys.stdout = io.StringIO()\n"
        "    code = None\n"
        "    try:\n"
        "        app(args, prog_name='planner')\n"
        "    except SystemExit as stop:\n"
        "        code = stop.code\n"
        "    sys.stdout = sys.__stdout__\n"
        f"    seen.append([args, code, sorted(m for m in {HEAVY!r} if m in sys.modules)])\n"
        "print(json.dumps(seen))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=ROOT,
    )
    seen = json.loads(result.stdout.splitlines()[-1])
    for args, exit_code, _ in seen:
        assert exit_code in (0, None), (args, result.stderr)
    return [set(loaded) for *_, loaded in seen]


def test_help_and_version_import_no_heavy_library() -> None:
    assert heavy_modules_after(["--help"], ["--version"]) == [set(), set()]


def test_report_commands_need_no_scipy_sympy_or_tui() -> None:
    commands = [
        ["evaluate", SCENARIO],
        ["evaluate", SCENARIO, "--format", "json"],
        ["sensitivity", SCENARIO],
        ["sweep", "--parity", "1,2"],
        ["validate", SCENARIO],
    ]
    forbidden = {"scipy", "sympy", "mpmath", "textual", "plotext", "matplotlib"}
    forbidden |= {"lifelines", "pandas", "autograd", "numpy.ma"}
    for args, loaded in zip(commands, heavy_modules_after(*commands), strict=True):
        assert not loaded & forbidden, (args, sorted(loaded & forbidden))
