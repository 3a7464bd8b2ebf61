"""The TUI benchmark times the planner it says it times (``--against`` another checkout)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench_tui() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_tui", ROOT / "benchmarks" / "bench_tui.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_tui"] = module
    spec.loader.exec_module(module)
    return module


def test_against_imports_the_other_checkout_when_run_from_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from the repository (as benchmarks/README.md says), the app's process must still
    import the ``--against`` checkout's planner: ``python -m`` would put the current
    directory first and time this checkout twice."""
    other = tmp_path / "other"
    (other / "planner").mkdir(parents=True)
    (other / "planner" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.chdir(ROOT)
    bench = _bench_tui()
    assert bench.planner_origin(other) == str(other / "planner")
    assert bench.planner_origin(None) == str(ROOT / "planner")
