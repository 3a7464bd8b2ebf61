"""A scenario's enclosures section, from the file to every surface (docs/domains.md).

The section's rules, defaults and limits; the exports' inputs line and keys; a sweep row
and every tornado bar equal to ``evaluate --set`` of the same value; ``recommend``'s search
over placements and its P(unavailable) target; the refusals (correlation beside it, the
simulator); a plan's tiers each with their own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from planner.analysis.compare import comparison
from planner.analysis.recommend import RecommendError, recommendation
from planner.analysis.sensitivity import sensitivity_report
from planner.analysis.varied_fields import field_for
from planner.cli import app
from planner.scenario import ScenarioError, load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
SHELVES = ["enclosures.members_per_enclosure=2"]
REL = 1e-9


def _json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _sets(overrides: list[str]) -> list[str]:
    return [arg for text in overrides for arg in ("--set", text)]


def test_rules_defaults_and_limits() -> None:
    scenario = load_scenario(TODAY, SHELVES)
    assert scenario.enclosures is not None
    assert scenario.enclosures.failures_per_year == 0.1  # the stated defaults
    assert scenario.enclosures.repair_hours == 24
    core = scenario.rates().enclosures
    assert core is not None
    assert core.failures_per_hour == pytest.approx(0.1 / 8760)
    assert core.placement(12).enclosures == 6
    spread = load_scenario(TODAY, [*SHELVES, "enclosures.spread=5"]).enclosures
    assert spread is not None
    assert spread.members_per_enclosure is None  # one rule replaces the other
    for sets, words in [
        (["enclosures.failures_per_year=0.1"], "give members_per_enclosure"),
        ([*SHELVES, "enclosures.failures_per_year=60"], "broken, not a rate"),
        ([*SHELVES, "enclosures.repair_hours=0"], "less than seconds"),
        ([*SHELVES, "enclosures.members_per_enclosure=0"], "at least one drive"),
        ([*SHELVES, "correlation.shocks_per_year=0.1"], "not modelled together"),
        ([*SHELVES, "ageing.weibull={shape: 1.3, scale_hours: 400000}"], "ageing drives and"),
        (["enclosures.spread=20", "layouts[0]={parity: 6, group_size: 20}"], "204 states"),
    ]:
        with pytest.raises(ScenarioError, match=words):
            load_scenario(TODAY, sets)
    both = "name: x\ndrive: {arr: 1%, latent_defects_per_hour: 1e-5}\nrestore: {rebuild_hours: "
    both += "12, scrub_hours: 168}\naggregate: {data_disks: 8}\nlayouts: [{raid: raid6, "
    both += "group_size: 10}]\nenclosures:\n  members_per_enclosure: 2\n  spread: 3\n"
    with pytest.raises(ScenarioError, match=r"x.yaml:8:\d+: enclosures.spread: .*not both"):
        load_scenario_text(both, source="x.yaml")


def test_evaluate_exports_the_enclosure_columns_and_inputs() -> None:
    document = _json("evaluate", str(TODAY), *_sets(SHELVES))
    plain = _json("evaluate", str(TODAY))
    still = _json("evaluate", str(TODAY), *_sets([*SHELVES, "enclosures.failures_per_year=0"]))
    assert document["inputs"]["enclosures"] == {
        "failures_per_year": 0.1,
        "repair_hours": 24.0,
        "members_per_enclosure": 2,
    }
    assert "enclosures" not in plain["inputs"]
    keys = ["enclosures_per_group", "p_unavailable_group", "p_unavailable_aggregate"]
    for row, alone, neutral in zip(
        document["layouts"], plain["layouts"], still["layouts"], strict=True
    ):
        assert list(row)[-3:] == keys
        assert not set(keys) & set(alone)
        assert row["p_unavailable_group"] >= row["p_loss_group"] >= alone["p_loss_group"]
        assert neutral["p_loss_group"] == alone["p_loss_group"]  # 0 failures: bit for bit
        assert neutral["p_unavailable_group"] == alone["p_loss_group"]
    raid6 = next(r for r in document["layouts"] if r["label"] == "RAID 6 (10+2)")
    assert raid6["enclosures_per_group"] == 6
    table = CliRunner().invoke(app, ["evaluate", str(TODAY), *_sets(SHELVES), "-f", "markdown"])
    assert "P(unavailable) aggregate" in table.stdout
    assert "enclosures: 0.1 failures/yr each, repaired in 24 h, 2 drives of a group" in table.stdout


def test_a_sweep_row_and_the_tornado_bars_are_evaluate_with_set() -> None:
    document = _json(
        "sweep", str(TODAY), *_sets(SHELVES), "--vary", "enclosures.members_per_enclosure=1..3:3"
    )
    rows = [r for r in document["rows"] if r["label"] == "RAID 6 (10+2)"]
    assert [r["enclosures_per_group"] for r in rows] == [12, 6, 4]
    for row, members in zip(rows, (1, 2, 3), strict=True):
        moved = comparison(load_scenario(TODAY, [f"enclosures.members_per_enclosure={members}"]))
        expected = next(r for r in moved.results if r.layout.label == "RAID 6 (10+2)")
        assert expected.enclosures is not None
        assert row["p_loss_aggregate"] == pytest.approx(expected.p_loss_aggregate, rel=REL)
        assert row["p_unavailable_aggregate"] == pytest.approx(
            expected.enclosures.p_unavailable_aggregate, rel=REL
        )
    scenario = load_scenario(TODAY, ["enclosures.members_per_enclosure=1"])
    label = scenario.baseline_label()
    report = sensitivity_report(scenario, label)
    names = {field_for(b.parameter).name: b for b in report.sensitivity.bars}
    for name in ("enclosures.failures_per_year", "enclosures.repair_hours"):
        bar = names[name]
        field = field_for(bar.parameter)
        for value, p_loss in ((bar.low_value, bar.p_loss_low), (bar.high_value, bar.p_loss_high)):
            text = f"{name}={float(f'{field.from_core(value):.12g}')!r}"
            moved = comparison(load_scenario(TODAY, ["enclosures.members_per_enclosure=1", text]))
            expected = next(r for r in moved.results if r.layout.label == label)
            assert p_loss == pytest.approx(expected.p_loss_aggregate, rel=REL), text
        assert bar.p_loss_high > bar.p_loss_low
        assert bar.elasticity > 0


def test_recommend_searches_the_spread() -> None:
    sets = [
        *SHELVES,
        "search={mirrors: false, declustered: false, parity: [2], group_sizes: [10, 12], "
        "members_per_enclosure: [1, 2, 12]}",
        "target={max_p_loss: 2%, max_p_unavailable: 5%}",
    ]
    found = recommendation(load_scenario(TODAY, sets))
    assert found.top is not None
    assert found.top.placement is not None
    assert found.top.placement.large_size == 1  # only one drive per enclosure rides through
    assert found.top.p_unavailable_aggregate is not None
    assert found.top.p_unavailable_aggregate <= 0.05
    assert found.evaluated == 3 * 3  # group sizes 10, 11, 12 in three placements
    assert found.top.name.endswith(f"({found.top.layout.group_size} x 1)")
    with pytest.raises(RecommendError, match="needs an enclosures section"):
        recommendation(load_scenario(TODAY, ["target={max_p_unavailable: 5%}"]))


def test_the_simulator_refuses_enclosures_and_tiers_take_their_own() -> None:
    for command in ("simulate", "compare-methods"):
        refused = CliRunner().invoke(app, [command, str(TODAY), *_sets(SHELVES)])
        assert refused.exit_code == 2
        assert "does not model enclosures" in refused.stderr
        assert "Traceback" not in refused.stderr
    plan = (
        "name: p\ndrive: {arr: 1%, latent_defects_per_hour: 1e-5}\nrestore: {rebuild_hours: "
        "12, scrub_hours: 168}\ntiers:\n  - name: shelved\n    aggregate: {data_disks: 20}\n"
        "    layouts: [{raid: raid6, group_size: 12}]\n    enclosures: "
        "{members_per_enclosure: 2}\n  - name: plain\n    aggregate: {data_disks: 20}\n"
        "    layouts: [{raid: raid6, group_size: 12}]\n"
    )
    tiers = {t["tier"]: t for t in _json_of_plan(plan)["tiers"]}
    assert tiers["shelved"]["layouts"][0]["enclosures_per_group"] == 6
    assert "enclosures_per_group" not in tiers["plain"]["layouts"][0]


def _json_of_plan(text: str) -> dict[str, Any]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "plan.yaml"
        path.write_text(text, encoding="utf-8")
        return _json("evaluate", str(path))


def test_a_sweep_says_what_the_enclosure_columns_mean() -> None:
    """Newcomer review: a sweep over members_per_enclosure showed P(loss) jumping (2 and 5
    drives per enclosure for RAID 6) with no word on why or on what P(unavail.) is."""
    result = CliRunner().invoke(
        app,
        ["sweep", str(TODAY), *_sets(SHELVES), "--vary", "enclosures.members_per_enclosure=1..6:6"],
    )
    assert result.exit_code == 0, result.stderr
    words = " ".join(result.stdout.split())
    assert "P(unavail.) the group stopping at least once" in words
    assert "exactly as many of a group's drives as its parity" in words
    assert "docs/domains.md" in words
    # the note's values are the base scenario's; the swept one says so (second review)
    assert "Enclosures (the base scenario's; the sweep varies members_per_enclosure)" in words
    sizes = ["-k", "2", "-g", "12..12", "--all", "-f", "markdown"]
    markdown = CliRunner().invoke(app, ["sweep", str(TODAY), *_sets(SHELVES), *sizes])
    assert "docs/domains.md" in markdown.stdout


def test_the_correlated_notes_say_shocks_are_per_group_in_evaluate_and_sweep() -> None:
    """Newcomer review: 0.1 shocks a group-year meet 96 RAID 10 pairs as 3 dRAID pools; the
    output should say the rate is per group whatever its size."""
    shipped = ROOT / "scenarios" / "correlated-20tb.yaml"
    for command in (["evaluate"], ["sweep", "-k", "2", "-g", "12..12", "--all"]):
        result = CliRunner().invoke(app, [command[0], str(shipped), *command[1:]])
        assert result.exit_code == 0, result.stderr
        words = " ".join(result.stdout.split())
        assert "the same rate for every group whatever its size" in words, command
