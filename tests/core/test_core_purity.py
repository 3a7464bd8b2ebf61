"""planner.core stays pure: no UI, YAML or validation libraries, and SymPy stays lazy."""

import json
import pkgutil
import subprocess
import sys

import planner.core

FORBIDDEN = ("textual", "typer", "rich", "pydantic", "ruamel", "yaml")
CORE_MODULES = tuple(
    m.name for m in pkgutil.walk_packages(planner.core.__path__, "planner.core.") if not m.ispkg
)
"""Every module of planner.core, found on disk so that a new one is checked too."""


def loaded_top_level_modules(*statements: str) -> list[set[str]]:
    """Top-level package names in sys.modules after each statement, run in turn in a new
    process (modules only accumulate: what a later set lacks, no earlier statement loaded)."""
    code = "import json as _json, sys as _sys\n_seen = []\n"
    for statement in statements:
        code += f"{statement}\n_seen.append(sorted(_sys.modules))\n"
    code += "print(_json.dumps(_seen))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return [{name.split(".")[0] for name in names} for names in json.loads(out.splitlines()[-1])]


def test_core_imports_no_front_end_library() -> None:
    """Every module of planner.core, those found here and those found on disk in the new
    process (modules added to planner.core later are covered too)."""
    assert {
        "planner.core.markov.expm",
        "planner.core.design.sensitivity",
        "planner.core.markov.symbolic",
    } <= set(CORE_MODULES)
    listed, walked = loaded_top_level_modules(
        "import " + ", ".join(CORE_MODULES),
        "import importlib, pkgutil, planner.core\n"
        "for info in pkgutil.walk_packages(planner.core.__path__, 'planner.core.'):\n"
        "    importlib.import_module(info.name)",
    )
    assert "planner" in listed
    assert not walked.intersection(FORBIDDEN), sorted(walked.intersection(FORBIDDEN))


def test_evaluate_does_not_import_sympy() -> None:
    """Neither importing what evaluate uses nor evaluating loads SymPy (or mpmath, on import)."""
    imported, evaluated = loaded_top_level_modules(
        "import planner.core.markov.transient, planner.core.arrays.layouts, "
        "planner.core.arrays.presets",
        "from planner.core.markov.transient import p_loss_group, mttdl_hours\n"
        "from planner.core.markov.rates import PAPER_RATES\n"
        "p_loss_group(2, 9, PAPER_RATES, 43800.0)\n"
        "mttdl_hours(2, 9, PAPER_RATES)",
    )
    assert "sympy" not in imported
    assert "mpmath" not in imported
    assert "sympy" not in evaluated
