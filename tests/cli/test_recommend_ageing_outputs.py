"""With an ageing section, recommend and the design review say the figure they judge by.

The decision itself is checked against a 40-digit chain in
tests/analysis/test_recommend_ageing.py; here every front end says the ageing figure where
it states the verdict (the choose view: tests/tui/test_tui_choose_ageing.py), and
recommend's JSON carries the same ageing figure as ``evaluate``
gives the same aggregate.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.report.percentages import format_percent

ROOT = Path(__file__).resolve().parents[2]
AGEING = ROOT / "scenarios" / "ageing-fleet.yaml"
TARGET = "target={max_p_loss: 0.003%}"


def _json(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_the_json_carries_the_ageing_figure_evaluate_gives() -> None:
    found = _json("recommend", str(AGEING), "--set", TARGET)
    former = next(c for c in found["front"] if c["label"] == "raid-tp 23")
    assert former["misses"] == ["max_p_loss"]
    alone = _json(
        "evaluate",
        str(AGEING),
        "--set",
        "layouts=[{raid: raid-tp, group_size: 23}]",
    )["layouts"][0]
    assert alone["groups"] == former["groups"]
    assert former["p_loss_aggregate_ageing"] == pytest.approx(
        alone["p_loss_aggregate_ageing"], rel=1e-12
    )
    assert former["p_loss_aggregate"] < 3e-5 < former["p_loss_aggregate_ageing"]
    top = found["recommended"]
    assert top["p_loss_aggregate_ageing"] <= 3e-5
    chosen = format_percent(top["p_loss_aggregate_ageing"])
    constant = format_percent(top["p_loss_aggregate"])
    summary = " ".join(found["summary"])
    assert f"P(loss) {chosen} with the drives ageing" in summary
    assert f"{constant} at the constant rate" in summary


def test_the_design_review_says_it_meets_the_target_ageing(tmp_path: Path) -> None:
    out = tmp_path / "review.md"
    result = CliRunner().invoke(app, ["report", str(AGEING), "--set", TARGET, "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    why = next(line for line in text.splitlines() if line.startswith("- it meets the target"))
    assert "over the mission with the drives ageing" in why
    assert "raid-tp 23" not in why


def test_every_line_of_the_verdict_names_the_figure_it_reads() -> None:
    """A newcomer's review: the cheaper layout's miss, the bound and P(group lost) read as
    the table's constant-rate P(loss) beside a verdict judged with the drives ageing."""
    found = _json("recommend", str(AGEING), "--set", TARGET)
    assert found["ranked_by_risk"] == ["p_loss_aggregate_ageing"]
    summary = found["summary"]
    cheaper = next(line for line in summary if line.startswith("The next cheaper"))
    assert "misses P(loss) with the drives ageing 0.0051% > 0.0030%" in cheaper
    bound = next(line for line in summary if "critical rebuild" in line)
    assert "P(loss) at the constant rate would be at most" in bound
    lost = next(line for line in summary if line.startswith("P(group lost)"))
    assert "P(group lost) is the constant rate's" in lost
    plain = _json("recommend", str(AGEING), "--set", TARGET, "--set", "ageing=null")
    assert plain["ranked_by_risk"] == ["p_loss_aggregate"]
    assert not any("constant rate" in line for line in plain["summary"])


def test_the_front_and_the_notes_say_which_figures_are_ageing() -> None:
    """A second look: the front's line named no figure, the table's other columns (Nines
    5.2 beside a verdict's 4.6) had no note, and the fast-rebuild note cited 19.5 h beside a
    22 h rebuild under load."""
    found = _json("recommend", str(AGEING), "--set", TARGET)
    summary = found["summary"]
    assert any(
        line.startswith("Pareto front of cost against P(loss) with the drives ageing")
        for line in summary
    )
    assert any("which the other columns keep" in line for line in summary)
    today = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
    fast = _json("recommend", str(today), "--set", "restore.rebuild_mb_per_s=1000")
    [note] = [line for line in fast["summary"] if line.startswith("Rebuild rate 1,000 MB/s")]
    assert "under restore.load x3.96, at least 77.2 h, where this rate gives 22 h" in note
