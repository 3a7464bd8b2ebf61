"""Fixtures of the TUI tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import textual.constants
from pilot_helpers import SCENARIO


@pytest.fixture(autouse=True)
def no_animations(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps made in a test do not animate (as with ``TEXTUAL_ANIMATIONS=none``).

    A view switch slid the tab's underline over some twenty frames, each repainting the
    screen, and Pilot waits for an animation to end after every key: a third of a second
    of CPU per F-key that checks nothing. The views, their contents and the focus are
    the same without it; only the underline jumps instead of sliding.
    """
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")


@pytest.fixture
def scenario_copy(tmp_path: Path) -> Path:
    """A private copy of the fixed scenario, safe to save over."""
    target = tmp_path / "aggregate.yaml"
    shutil.copy(SCENARIO, target)
    return target
