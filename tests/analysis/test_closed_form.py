"""The model view's closed form: exact up to k = 6 (cached on disk), leading order beyond."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.analysis import derivation_cache
from planner.analysis.derivation import chain_streams, closed_form
from planner.report.derivation import closed_form_text


def test_parity_8_shows_the_leading_order_without_deriving(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A parity-8 layout used to start a derivation of many minutes in the model view."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = closed_form_text(closed_form(8))
    assert "MTTDL, leading order" in text
    assert "not computed" in text
    assert not (tmp_path / "planner").exists()


def test_parity_2_is_exact_and_cached(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = closed_form_text(closed_form(2))
    assert text.index("leading order") < text.index("exact")
    assert "  P = " in text
    assert derivation_cache.entry_path(2).exists()


def test_the_model_view_and_derive_name_one_chain_alike(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """k = 1 with every failed drive rebuilt at once is one at a time: the cached chain.

    The TUI passed the scenario's streams as they were (None, or k and more), so its model
    view derived again what ``planner derive`` had cached; both now go through
    :func:`chain_streams`.
    """
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert chain_streams(1, None) == 1
    assert chain_streams(2, 5) is None
    assert chain_streams(3, 2) == 2
    closed_form(1, None)
    assert derivation_cache.entry_path(1).exists()
    assert closed_form(1, 4).from_cache
