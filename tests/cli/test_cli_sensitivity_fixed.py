"""``planner sensitivity --fixed``: the tornado of aggregate.data_disks with a workload too.

With a workload the tornado is of the layout's sized aggregate (as ``planner size`` and the
TUI's compare table show it); the TUI's ``c`` switches to the fixed aggregate of
``aggregate.data_disks`` (``planner evaluate``'s), and the command line could not (the
TUI helper's report: a capability one front end has and the other lacks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from planner.cli import app

SEARCH = Path(__file__).resolve().parents[2] / "scenarios" / "recommend-400tb.yaml"
LABEL = "RAID 6 (10+2)"


def _json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def _row(document: dict[str, Any]) -> dict[str, Any]:
    return next(row for row in document["layouts"] if row["label"] == LABEL)


def test_fixed_is_evaluates_aggregate_and_the_default_sizes() -> None:
    fixed = _json("sensitivity", str(SEARCH), "--layout", LABEL, "--fixed")
    shown = _row(_json("evaluate", str(SEARCH)))
    assert fixed["sized_aggregate"] is False
    assert fixed["groups"] == shown["groups"]
    assert abs(fixed["p_loss_aggregate"] / shown["p_loss_aggregate"] - 1) < 1e-12
    assert any(bar["field"] == "aggregate.data_disks" for bar in fixed["bars"])
    sized = _json("sensitivity", str(SEARCH), "--layout", LABEL)
    assert sized["sized_aggregate"] is True
    size_row = _row(_json("size", str(SEARCH)))
    assert abs(sized["p_loss_aggregate"] / size_row["p_loss_aggregate"] - 1) < 1e-12
