"""planner.cli and planner.tui only call planner.analysis and render: they hold no computation.

Checked on the source of every module of the two packages (so modules added later are
covered too):

* from planner.core they may import classes (result types to annotate and read) and plain
  data (a preset table, a constant), never a function: every maths call goes through
  :mod:`planner.analysis`;
* they never import a planner.core module as a module (``import planner.core.x``), which
  would let them call its functions without naming them;
* they import no numerical library (NumPy, SciPy, SymPy, mpmath).

The check has teeth: :func:`test_the_check_catches_a_computing_module` runs it on a module
that calls the core, and on the old ``tui/analysis.py`` pattern.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import planner.cli
import planner.tui

NUMERIC_LIBRARIES = ("numpy", "scipy", "sympy", "mpmath")


def front_end_modules() -> Iterator[tuple[str, Path]]:
    """Every module of planner.cli and planner.tui: its dotted name and its file."""
    for package in (planner.cli, planner.tui):
        for info in pkgutil.iter_modules(package.__path__):
            name = f"{package.__name__}.{info.name}"
            spec = importlib.util.find_spec(name)
            assert spec is not None
            assert spec.origin is not None
            yield name, Path(spec.origin)


def computation_imports(source: str, module: str) -> list[str]:
    """What in ``source`` breaks the rule, as ``module: line: why`` texts (empty: pure)."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in NUMERIC_LIBRARIES or alias.name.startswith("planner.core"):
                    problems.append(f"{module}:{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module.split(".")[0] in NUMERIC_LIBRARIES:
                problems.append(f"{module}:{node.lineno}: from {node.module} import ...")
            elif node.module == "planner" and any(a.name == "core" for a in node.names):
                problems.append(f"{module}:{node.lineno}: from planner import core")
            elif node.module.startswith("planner.core"):
                core = importlib.import_module(node.module)
                for alias in node.names:
                    value = getattr(core, alias.name, None)
                    if value is None and importlib.util.find_spec(core.__name__) is not None:
                        # a sub-package not loaded yet: ``from planner.core import markov``
                        try:
                            value = importlib.import_module(f"{node.module}.{alias.name}")
                        except ImportError:
                            value = None
                    if inspect.ismodule(value) or (callable(value) and not isinstance(value, type)):
                        problems.append(
                            f"{module}:{node.lineno}: from {node.module} import {alias.name} "
                            "(a function: call planner.analysis instead)"
                        )
    return problems


@pytest.mark.parametrize(("module", "path"), list(front_end_modules()), ids=lambda x: str(x))
def test_front_end_module_holds_no_computation(module: str, path: Path) -> None:
    assert computation_imports(path.read_text(encoding="utf-8"), module) == []


def test_every_front_end_package_is_checked() -> None:
    names = {name for name, _ in front_end_modules()}
    assert {
        "planner.cli.app",
        "planner.cli.sweep",
        "planner.tui.app",
        "planner.tui.compare_view",
    } <= (names)


def test_the_check_catches_a_computing_module() -> None:
    old_tui_analysis = (
        "from planner.core.design.sensitivity import tornado\n"
        "from planner.core.design.sizing import SizingResult, size_layouts\n"
        "from planner.core.design.sweep import SweepPoint\n"
    )
    problems = computation_imports(old_tui_analysis, "old")
    assert [p.split(" import ")[1].split()[0] for p in problems] == ["tornado", "size_layouts"]
    assert computation_imports("import numpy as np\n", "m")
    assert computation_imports("import planner.core.markov.transient\n", "m")
    assert computation_imports("from planner.core import markov\n", "m")
    assert computation_imports("from planner.core.markov import transient\n", "m")
    assert computation_imports("from scipy.linalg import expm\n", "m")
    a_result_type = "from planner.core.design.layout_comparison import Comparison\n"
    assert not computation_imports(a_result_type, "m")
