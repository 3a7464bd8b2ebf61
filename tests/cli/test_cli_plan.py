"""The commands on a plan of several tiers: every format well formed, --tier, bad input.

The numbers themselves are checked in tests/analysis/test_plan_totals.py (against mpmath);
here each output is parsed back and its totals compared with the per-tier rows it shows.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from shipped import PLANS
from typer.testing import CliRunner

from planner.cli import app
from planner.report.plan import tier_slugs
from tests.reference import any_loss, relative_error

PLAN = str(next(path for path in PLANS if path.name == "three-tier-plan.yaml"))
TIERS = ["SSD", "SAS", "NL-SAS"]

SMALL = """\
name: small plan
restore: {rebuild_hours: 12, scrub_hours: 168}
drive: {arr: 1.9%, latent_defects_per_hour: 1.08e-4, capacity_tb: 1}
tiers:
  - name: fast tier
    aggregate: {data_disks: 8}
    layouts: [{raid: raid5, group_size: 5}]
  - name: slow tier
    drive: {arr: 3%, latent_defects_per_hour: 1.08e-4, capacity_tb: 4}
    aggregate: {data_disks: 16}
    layouts: [{raid: raid6, group_size: 10}]
"""


def run(*args: str, code: int = 0) -> Any:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result


def test_evaluate_json_is_a_list_of_tiers_and_a_total() -> None:
    document = json.loads(run("evaluate", PLAN, "-f", "json").stdout)
    assert document["plan"].startswith("Three tiers")
    assert [tier["tier"] for tier in document["tiers"]] == TIERS
    for tier in document["tiers"]:  # each tier as `planner evaluate` gives a scenario
        assert {"scenario", "mission_hours", "baseline", "layouts", "inputs"} <= set(tier)
    total = document["total"]
    assert total["basis"] == "baseline"
    assert total["tiers_independent"] is True
    rows = total["tiers"]
    assert [row["tier"] for row in rows] == TIERS
    for tier, row in zip(document["tiers"], rows, strict=True):
        (base,) = [r for r in tier["layouts"] if r["label"] == tier["baseline"]]
        assert (row["label"], row["p_loss"]) == (base["label"], base["p_loss_aggregate"])
        assert row["total_disks"] == base["total_disks"]
    assert total["total_disks"] == sum(row["total_disks"] for row in rows)
    assert total["total_cost"] == pytest.approx(sum(row["total_cost"] for row in rows))
    p_any = total["p_loss_any_tier"]
    assert relative_error(p_any, any_loss([row["p_loss"] for row in rows])) < 1e-13


def test_evaluate_csv_has_a_tier_column_and_the_plans_row() -> None:
    text = run("evaluate", PLAN, "-f", "csv").stdout
    lines = text.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == [f"# {name}" for name in TIERS]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[3:]))))
    assert list(rows[0])[:3] == ["tier", "in_total", "label"]
    assert [r["tier"] for r in rows] == ["SSD", "SSD", "SAS", "SAS", "NL-SAS", "NL-SAS", "Plan"]
    counted = [r for r in rows if r["in_total"] == "True"]
    assert [r["tier"] for r in counted] == TIERS  # one layout of each tier: its baseline
    plan = rows[-1]
    assert int(plan["total_disks"]) == sum(int(r["total_disks"]) for r in counted)
    p_any = float(plan["p_loss_aggregate"])
    assert relative_error(p_any, any_loss([float(r["p_loss_aggregate"]) for r in counted])) < 1e-12


def test_evaluate_markdown_and_table_show_every_tier_then_the_totals() -> None:
    markdown = run("evaluate", PLAN, "-f", "markdown").stdout
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings[0].startswith("## Three tiers")
    assert headings[1:4] == ["### SSD", "### SAS", "### NL-SAS"]
    assert headings[4].startswith("### Plan totals")
    assert MarkdownIt("commonmark").enable("table").render(markdown).count("<table>") == 4
    assert "taken as independent" in markdown
    table = run("evaluate", PLAN).stdout  # piped: every column, no colour
    assert table.index("SSD") < table.index("NL-SAS") < table.index("Plan totals")
    assert "independent" in table.split("Plan totals")[1]
    # a note every tier shares is said once in the terminal (newcomer review: three times)
    words = " ".join(table.split())
    assert words.count("The loss figures do not sum") == 1
    assert words.count("Degraded and Critical h/yr: one group's") == 1
    assert "docs/declustered.md" in words  # a note of one tier alone stays with it


def test_the_terminal_table_of_a_tier_names_its_set_overrides() -> None:
    """A tier's table title says the --set it was computed with, as Markdown's heading and
    a single scenario's table do (the terminal table of a plan did not)."""
    table = run("evaluate", PLAN, "--set", "tiers[0].drive.arr=2%", "--set", "drive.afr=1%").stdout
    titles = [line.strip() for line in table.splitlines() if line.strip().startswith("SSD")]
    assert titles[0] == "SSD (with --set tiers[0].drive.arr=2%, drive.afr=1%)", titles
    assert "NL-SAS (with --set drive.afr=1%)" in table


@pytest.mark.parametrize("output_format", ["json", "csv", "markdown", "table"])
def test_recommend_gives_each_tier_and_the_recommended_totals(output_format: str) -> None:
    text = run("recommend", PLAN, "-f", output_format, "--top", "2").stdout
    if output_format == "json":
        document = json.loads(text)
        assert [tier["tier"] for tier in document["tiers"]] == TIERS
        total = document["total"]
        assert total["basis"] == "recommended"
        labels = [tier["recommended"]["label"] for tier in document["tiers"]]
        assert [row["label"] for row in total["tiers"]] == labels
    elif output_format == "csv":
        rows = list(csv.DictReader(io.StringIO("\n".join(text.splitlines()[3:]))))
        assert {r["tier"] for r in rows} == {*TIERS, "Plan"}
        assert rows[-1]["role"] == "plan_total"
    else:
        assert text.index("SSD") < text.index("NL-SAS") < text.index("Plan totals")
        assert "independent" in text.split("Plan totals")[1]


def test_report_reviews_each_tier_with_its_own_pictures(tmp_path: Path) -> None:
    plan = tmp_path / "small.yaml"
    plan.write_text(SMALL, encoding="utf-8")
    target = tmp_path / "review.md"
    run("report", str(plan), "-o", str(target), "--time-budget", "0.1")
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Design review: small plan\n")
    assert "## The plan" in text
    assert text.index("## Tier: fast tier") < text.index("## Tier: slow tier")
    assert "### Recommendation" in text  # a tier's sections, one level below
    for slug in ("fast-tier", "slow-tier"):
        for kind in ("front", "sweep"):
            assert (tmp_path / f"review-{slug}-{kind}.svg").is_file()
            assert f"](review-{slug}-{kind}.svg)" in text


def test_tier_file_names_never_clash() -> None:
    assert tier_slugs(["NL-SAS", "SSD (fast)"]) == ["nl-sas", "ssd-fast"]
    assert tier_slugs(["SSD", "ssd", "!!"]) == ["ssd-1", "ssd-2", "tier"]


def test_one_aggregate_commands_take_a_tier_by_name() -> None:
    swept = json.loads(run("sweep", PLAN, "--tier", "NL-SAS", "-f", "json").stdout)
    assert swept["inputs"]["data_disks"] == 96
    error = run("sweep", PLAN, code=2).stderr
    assert "is a plan of 3 tiers (SSD, SAS, NL-SAS); choose one: --tier NAME" in error
    error = run("sensitivity", PLAN, "--tier", "NLSAS", code=2).stderr
    assert "did you mean 'NL-SAS'" in error
    error = run("size", "scenarios/lenovo-s3200.yaml", "--tier", "SSD", code=2).stderr
    assert "describes one aggregate" in error
    assert len(error.splitlines()) == 1


def test_validate_lists_the_tiers() -> None:
    out = run("validate", PLAN).stdout.splitlines()
    assert out[0].endswith("3 tiers")
    assert [line.split("'")[1] for line in out[1:]] == TIERS


def test_a_bad_tier_is_one_line_naming_file_line_and_tier(tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text(SMALL.replace("arr: 3%", "arr: 300%"), encoding="utf-8")
    error = run("evaluate", str(plan), code=2).stderr
    assert error.startswith(f"planner: error: {plan}:9:18: tiers[1].drive.arr: 300% is not")
    assert len(error.splitlines()) == 1
    error = run("evaluate", PLAN, "--set", "tiers[2].aggregate.data_disks=0", code=2).stderr
    assert "--set tiers[2].aggregate.data_disks=0: tiers[2].aggregate.data_disks:" in error
