"""A target probability given as a bare number is a fraction, and every output says so.

``target.max_p_loss: 0.01`` is 1 % (a bare number is a fraction, as ``drive.arr: 0.019``
is 1.9 %); an admin who meant 0.01 % and left out the sign got a target 100 times looser
with nothing to show it. The limit now reads "at most 1.0% (given as the fraction 0.01,
not 0.01%)" wherever it stands: the summary (Rich, Markdown, a plan's tiers, the design
review's opening), the JSON's target, the TUI's choose view. These tests failed first.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.analysis.recommend import recommendation
from planner.report import recommend as render
from planner.report.recommend_summary import target_text
from planner.scenario import Scenario, load_scenario
from planner.scenario.edits import FieldSpec, field_specs, revalidate, scenario_data, with_value
from planner.tui.choose import _detail

SHIPPED = Path(__file__).resolve().parents[2] / "scenarios" / "recommend-400tb.yaml"
SMALL = ("search.parity=[2]", "search.group_sizes=[10, 12]", "search.mirrors=false")
"""A search of a few layouts: the words, not the search, are under test."""
ECHO = "at most 1.0% (given as the fraction 0.01, not 0.01%)"


@pytest.mark.parametrize(
    ("overrides", "bare", "limit"),
    [
        (("target.max_p_loss=0.01",), ("max_p_loss",), 0.01),
        (("target.max_p_loss=1e-4",), ("max_p_loss",), 1e-4),
        (("target.max_p_loss=0.01%",), (), 1e-4),
        ((), (), 1e-4),  # the shipped file writes 0.01%
        (("target={max_p_group_lost: 1e-6, max_p_unavailable: 1%}",), ("max_p_group_lost",), None),
        (("target={min_nines: 4}",), (), 1e-4),
    ],
)
def test_the_scenario_knows_which_limits_were_bare_fractions(
    overrides: tuple[str, ...], bare: tuple[str, ...], limit: float | None
) -> None:
    target = load_scenario(SHIPPED, overrides).target
    assert target is not None
    assert target.bare_fractions == bare
    assert target.p_loss_limit == limit  # a bare number is read as a fraction, as before


def test_every_output_echoes_a_bare_fraction_beside_the_limit() -> None:
    report = recommendation(load_scenario(SHIPPED, ("target.max_p_loss=0.01", *SMALL)))
    assert report.target.max_p_loss == 0.01
    assert ECHO in target_text(report)
    assert ECHO in render.to_markdown(report)
    assert json.loads(render.to_json(report))["target"]["given_as_fraction"] == ["max_p_loss"]
    assert "≤ 1.0% (given as the fraction 0.01, not 0.01%)" in _detail(report, None).plain


def test_a_percentage_is_shown_as_given() -> None:
    report = recommendation(load_scenario(SHIPPED, SMALL))
    assert "at most 0.010%;" in target_text(report)
    assert "given as the fraction" not in render.to_markdown(report)
    assert json.loads(render.to_json(report))["target"]["given_as_fraction"] == []


@pytest.mark.parametrize(
    ("given", "bare"),
    [
        ("0.01%", ()),
        ("0.0123%", ()),
        ("1.9%", ()),
        ("0.01", ("max_p_loss",)),
        ("1e-4", ("max_p_loss",)),
    ],
)
def test_how_a_limit_was_given_survives_an_edit(given: str, bare: tuple[str, ...]) -> None:
    """The TUI and --set revalidate the scenario's dump: a percentage must not turn bare."""
    scenario = load_scenario(SHIPPED, (f"target.max_p_loss={given}",))
    edited = with_value(scenario, spec_of(scenario, "restore.scrub_hours"), 336.0)
    assert edited.target is not None
    assert scenario.target is not None
    assert edited.target.bare_fractions == bare
    assert edited.target.max_p_loss == scenario.target.max_p_loss  # the same float
    assert revalidate(scenario_data(scenario)) == scenario


def spec_of(scenario: Scenario, dotted: str) -> FieldSpec:
    return next(spec for spec in field_specs(scenario) if ".".join(spec.path) == dotted)
