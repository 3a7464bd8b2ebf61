"""planner.core stays pure: no UI, YAML or validation libraries, and SymPy stays lazy."""

import json
import pkgutil
import subprocess
import sys

import planner.core

FORBIDDEN = ("textual", "typer", "rich", "pydantic", "ruamel", "yaml")
CORE_MODULES = tuple(f"planner.core.{m.name}" for m in pkgutil.iter_modules(planner.core.__path__))
"""Every module of planner.core, found on disk so that a new one is checked too."""


def loaded_top_level_modules(statement: str) -> set[str]:
    """Top-level package names in sys.modules after running ``statement`` in a new process."""
    code = f"{statement}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return {name.split(".")[0] for name in json.loads(out.splitlines()[-1])}


def test_core_imports_no_front_end_library() -> None:
    assert {"planner.core.expm", "planner.core.sensitivity", "planner.core.derive"} <= set(
        CORE_MODULES
    )
    loaded = loaded_top_level_modules("import " + ", ".join(CORE_MODULES))
    assert "planner" in loaded
    assert not loaded.intersection(FORBIDDEN), sorted(loaded.intersection(FORBIDDEN))


def test_evaluate_does_not_import_sympy() -> None:
    loaded = loaded_top_level_modules(
        "import planner.core.evaluate, planner.core.layouts, planner.core.presets"
    )
    assert "sympy" not in loaded
    assert "mpmath" not in loaded


def test_evaluating_does_not_import_sympy() -> None:
    loaded = loaded_top_level_modules(
        "from planner.core.evaluate import p_loss_group, mttdl_hours\n"
        "from planner.core.rates import PAPER_RATES\n"
        "p_loss_group(2, 9, PAPER_RATES, 43800.0)\n"
        "mttdl_hours(2, 9, PAPER_RATES)"
    )
    assert "sympy" not in loaded


def test_every_core_module_is_pure() -> None:
    """Modules added to planner.core later are covered too."""
    loaded = loaded_top_level_modules(
        "import importlib, pkgutil, planner.core\n"
        "for info in pkgutil.iter_modules(planner.core.__path__):\n"
        "    importlib.import_module('planner.core.' + info.name)"
    )
    assert not loaded.intersection(FORBIDDEN), sorted(loaded.intersection(FORBIDDEN))
