"""``planner recommend`` against a brute-force enumeration written here, on small spaces.

Each candidate's P(loss) comes from the independent mpmath chain of tests/reference.py and
its group count from ceil(data drives / (N - k)) worked out here; the meeting set, the top
choice, the nearest cheaper and the Pareto front are then found by the definitions.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis.recommend import RecommendError, recommendation
from planner.cli import app
from planner.scenario import load_scenario
from tests import reference

SCENARIO = """\
name: small search
mission_years: 5
drive:
  arr: 4%
  latent_defects_per_hour: 1e-5
  capacity_tb: 4
restore:
  rebuild_hours: 24
  scrub_hours: 168
aggregate:
  data_disks: 24
layouts:
  - raid: raid6
    group_size: 8
target:
  max_p_loss: {limit}
search:
  parity: [1, 2]
  group_sizes: [3, 8]
"""

LOP = 0.04 / reference.HOURS_PER_YEAR
MISSION = 5 * reference.HOURS_PER_YEAR


def _scenario(tmp_path: Path, limit: str = "0.5%", extra: str = "") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(limit=limit) + extra, encoding="utf-8")
    return path


def _brute_force() -> list[tuple[str, int, float]]:
    """(label, total drives, P(loss) of the aggregate) of every layout of the space."""
    shapes = [("raid10 2", 1, 2), ("mirror3 3", 2, 3)]
    shapes += [(f"raid5 {n}", 1, n) for n in range(3, 9)]
    shapes += [(f"raid6 {n}", 2, n) for n in range(3, 9)]
    rows = []
    for label, k, n in shapes:
        groups = -(-24 // (n - k))
        p = reference.p_loss(k, n, LOP, 1e-5, 24.0, 168.0, MISSION)
        rows.append((label, groups * n, float(reference.aggregate(p, groups))))
    return rows


@pytest.mark.parametrize("limit", ["0.5%", "2%", "1e-6"])
def test_recommend_matches_brute_force(tmp_path: Path, limit: str) -> None:
    report = recommendation(load_scenario(_scenario(tmp_path, limit)))
    rows = _brute_force()
    cap = float(limit.rstrip("%")) / (100 if limit.endswith("%") else 1)
    assert report.evaluated == len(rows)
    by_label = {c.layout.label: c for c in report.front}
    for label, drives, p in rows:
        if label in by_label:
            assert by_label[label].total_disks == drives
            assert by_label[label].p_loss_aggregate == pytest.approx(p, rel=1e-9)
    good = sorted((d, p, label) for label, d, p in rows if p <= cap)
    assert [c.layout.label for c in report.meeting] == [label for _, _, label in good]
    front = {
        label
        for label, d, p in rows
        if not any(d2 <= d and p2 <= p and (d2 < d or p2 < p) for _, d2, p2 in rows)
    }
    assert {c.layout.label for c in report.front} == front
    assert report.off_front == len(rows) - len(front)
    if not good:
        assert report.top is None
        assert report.closest is not None
        ratios = {label: p / cap for label, _, p in rows}
        assert ratios[report.closest.layout.label] == pytest.approx(min(ratios.values()))
        return
    assert report.top is not None
    assert report.top.layout.label == good[0][2]
    cheaper = [(d, p, label) for label, d, p in rows if d < good[0][0] and label in front]
    if cheaper:
        dearest = max(d for d, _, _ in cheaper)
        expected = min((p, label) for d, p, label in cheaper if d == dearest)[1]
        assert report.nearest_cheaper is not None
        assert report.nearest_cheaper.layout.label == expected
        assert [m.target for m in report.nearest_cheaper.misses] == ["max_p_loss"]


def test_nothing_meets_the_target_exits_2_with_the_closest(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["recommend", str(_scenario(tmp_path, "1e-12"))])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no layout meets the target; closest: mirror3 3" in lines[0]
    assert "P(loss)" in lines[0]
    assert "No layout meets the target." in result.stdout


def test_json_names_the_choice_and_the_front(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["recommend", str(_scenario(tmp_path)), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert (
        document["recommended"]["label"]
        == recommendation(load_scenario(_scenario(tmp_path))).top.layout.label
    )  # type: ignore[union-attr]
    assert document["evaluated"] == 14
    assert document["front_size"] + document["off_front"] == 14
    assert document["ranked_by"] == "total_disks"
    assert all(math.isfinite(row["p_loss_aggregate"]) for row in document["front"])


def test_a_scenario_without_a_target_is_refused_without_a_fallback(tmp_path: Path) -> None:
    """The search alone refuses; the CLI, like the TUI's F7 and ``report``, falls back to
    the default target of 1 in 10,000 and says so."""
    text = SCENARIO.format(limit="1%").split("target:")[0]
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecommendError, match="no target section"):
        recommendation(load_scenario(path))
    result = CliRunner().invoke(app, ["recommend", str(path), "-f", "json"])
    assert result.stderr == ""
    document = json.loads(result.stdout)
    assert document["target"]["max_p_loss"] == 1e-4
    note = "by default: the scenario sets no target; add a `target:` section"
    assert note in document["summary"][0]


@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        ("max_p_loss: 0.5%", "max_p_loss: 0.5%\n  min_nines: 3", "not both"),
        ("max_p_loss: 0.5%", "max_p_group_lost: lots", "not a probability"),
        ("max_p_loss: 0.5%", "max_p_loss: lots", "not a probability"),
        ("group_sizes: [3, 8]", "group_sizes: [8, 3]", "[min, max]"),
        ("group_sizes: [3, 8]", "group_sizes: [3]", "two numbers, [min, max]"),
        ("parity: [1, 2]", "parity: [0, 2]", "out of range"),
        ("group_sizes: [3, 8]", "group_size: [3, 8]", "unknown key"),
    ],
)
def test_bad_target_or_search_is_one_line_with_a_position(
    tmp_path: Path, old: str, new: str, fragment: str
) -> None:
    text = SCENARIO.format(limit="0.5%").replace(old, new)
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["recommend", str(path)])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "\n" not in line
    assert fragment in line
    assert f"{path}:" in line


def test_with_prices_the_ranking_is_the_total_cost_of_ownership(tmp_path: Path) -> None:
    # price per drive, an enclosure share per group and energy: the ranking is their sum
    extra = "costs:\n  energy_per_kwh: 0.2\n  per_group: 900\n  currency: EUR\n"
    text = SCENARIO.format(limit="2%").replace(
        "  capacity_tb: 4\n", "  capacity_tb: 4\n  price: 100\n  watts: 7\n"
    )
    path = tmp_path / "priced.yaml"
    path.write_text(text + extra, encoding="utf-8")
    report = recommendation(load_scenario(path))
    assert report.money
    assert report.currency == "EUR"

    def cost(drives: int, groups: int) -> float:
        replacements = drives * LOP * MISSION  # Poisson mean of each slot's failures
        energy = drives * 7 * MISSION / 1000 * 0.2
        return drives * 100 + groups * 900 + replacements * 100 + energy

    rows = []
    for label, k, n in [("raid10 2", 1, 2), ("mirror3 3", 2, 3)] + [
        (f"raid{5 if k == 1 else 6} {n}", k, n) for k in (1, 2) for n in range(3, 9)
    ]:
        groups = -(-24 // (n - k))
        p = float(
            reference.aggregate(reference.p_loss(k, n, LOP, 1e-5, 24.0, 168.0, MISSION), groups)
        )
        rows.append((cost(groups * n, groups), p, label))
    good = sorted(r for r in rows if r[1] <= 0.02)
    assert report.top is not None
    assert report.top.layout.label == good[0][2]
    assert report.top.rank_cost == pytest.approx(good[0][0], rel=1e-12)
    assert [c.layout.label for c in report.meeting] == [label for _, _, label in good]


def test_usable_tb_is_the_compare_tables_without_a_workload(tmp_path: Path) -> None:
    # the design report shows both tables: one layout, one usable capacity
    from planner.analysis.compare import comparison

    scenario = load_scenario(_scenario(tmp_path, "2%"))
    found = {c.layout.label: c for c in recommendation(scenario).meeting}
    compared = comparison(scenario).results[0]  # raid6 8: 4 groups of 6 data drives
    assert compared.layout.label == "raid6 8"
    assert found["raid6 8"].usable_tb == pytest.approx(compared.usable_tb, rel=1e-12)
    # one meaning of usable TB (issue 20): data drives x capacity x the usable fraction
    assert compared.usable_tb == pytest.approx(4 * 6 * 4.0 * 0.9)
