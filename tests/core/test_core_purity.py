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


def loaded_top_level_modules(statement: str) -> set[str]:
    """Top-level package names in sys.modules after running ``statement`` in a new process."""
    code = f"{statement}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return {name.split(".")[0] for name in json.loads(out.splitlines()[-1])}


def test_core_imports_no_front_end_library() -> None:
    assert {
        "planner.core.markov.expm",
        "planner.core.design.sensitivity",
        "planner.core.markov.symbolic",
    } <= set(CORE_MODULES)
    loaded = loaded_top_level_modules("import " + ", ".join(CORE_MODULES))
    assert "planner" in loaded
    assert not loaded.intersection(FORBIDDEN), sorted(loaded.intersection(FORBIDDEN))


def test_evaluate_does_not_import_sympy() -> None:
    loaded = loaded_top_level_modules(
        "import planner.core.markov.transient, planner.core.arrays.layouts, "
        "planner.core.arrays.presets"
    )
    assert "sympy" not in loaded
    assert "mpmath" not in loaded


def test_evaluating_does_not_import_sympy() -> None:
    loaded = loaded_top_level_modules(
        "from planner.core.markov.transient import p_loss_group, mttdl_hours\n"
        "from planner.core.markov.rates import PAPER_RATES\n"
        "p_loss_group(2, 9, PAPER_RATES, 43800.0)\n"
        "mttdl_hours(2, 9, PAPER_RATES)"
    )
    assert "sympy" not in loaded


def test_every_core_module_is_pure() -> None:
    """Modules added to planner.core later are covered too."""
    loaded = loaded_top_level_modules(
        "import importlib, pkgutil, planner.core\n"
        "for info in pkgutil.walk_packages(planner.core.__path__, 'planner.core.'):\n"
        "    importlib.import_module(info.name)"
    )
    assert not loaded.intersection(FORBIDDEN), sorted(loaded.intersection(FORBIDDEN))
