"""Fixtures of the TUI tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pilot_helpers import SCENARIO


@pytest.fixture
def scenario_copy(tmp_path: Path) -> Path:
    """A private copy of the fixed scenario, safe to save over."""
    target = tmp_path / "aggregate.yaml"
    shutil.copy(SCENARIO, target)
    return target
