"""The ``planner sensitivity`` command end to end: ranking, signs, values against mpmath."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath
import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
TABLE4 = ROOT / "scenarios" / "ns3574-table4.yaml"

FIELDS = {
    "drive.arr",
    "drive.latent_defects_per_hour",
    "restore.rebuild_hours",
    "restore.scrub_hours",
    "mission_years",
    "aggregate.data_disks",
}
RISK_RAISING = ("drive.arr", "drive.latent_defects_per_hour", "restore.rebuild_hours",
                "restore.scrub_hours")  # fmt: skip


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run_json(runner: CliRunner, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["sensitivity", *args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def bars(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {bar["field"]: bar for bar in document["bars"]}


def test_default_is_the_baseline_ranked_by_swing(runner: CliRunner) -> None:
    document = run_json(runner)
    assert document["layout"] == "raid-dp 9"
    assert (document["parity"], document["group_size"], document["groups"]) == (2, 9, 6)
    assert {bar["field"] for bar in document["bars"]} == FIELDS
    swings = [bar["swing"] for bar in document["bars"]]
    assert swings == sorted(swings, reverse=True)
    assert [bar["rank"] for bar in document["bars"]] == list(range(1, 7))
    for bar in document["bars"]:
        assert bar["swing"] == pytest.approx(abs(bar["p_loss_high"] - bar["p_loss_low"]))
    assert document["bars"][0]["field"] == "drive.arr"  # P ~ ARR^2 for n+2


def test_values_in_scenario_units(runner: CliRunner) -> None:
    by_field = bars(run_json(runner))
    assert by_field["drive.arr"]["base_value"] == 0.019
    assert by_field["drive.arr"]["low_value"] == 0.0095
    assert by_field["mission_years"]["high_value"] == 10
    assert by_field["aggregate.data_disks"]["low_value"] == 21
    assert by_field["restore.rebuild_hours"]["high_value"] == 24


@pytest.mark.parametrize("label", ["raid10 2", "raid5 8", "raid-dp 9", "raid-dp 16"])
@pytest.mark.parametrize("overrides", [[], ["--set", "restore.rebuild_hours=48"]])
def test_raising_a_rate_or_a_repair_time_never_lowers_risk(
    runner: CliRunner, label: str, overrides: list[str]
) -> None:
    """k <= 2: more failures, more defects, slower rebuilds or scrubs never help."""
    document = run_json(runner, "--layout", label, *overrides)
    assert document["parity"] <= 2
    by_field = bars(document)
    for field in RISK_RAISING:
        bar = by_field[field]
        assert bar["p_loss_low"] <= document["p_loss_aggregate"] <= bar["p_loss_high"], field
        assert bar["elasticity"] >= 0, field


def test_probabilities_and_elasticity_match_mpmath(
    runner: CliRunner,
    mp_p_loss: Callable[..., mpmath.mpf],
    mp_aggregate: Callable[[mpmath.mpf, int], mpmath.mpf],
) -> None:
    document = run_json(runner, "--layout", "raid-dp 9", "--low", "0.25", "--high", "4")
    by_field = bars(document)
    groups = document["groups"]
    assert document["p_loss_group"] == pytest.approx(float(mp_p_loss(2, 9)), rel=1e-9)
    high = mp_aggregate(mp_p_loss(2, 9, rebuild=48.0), groups)
    assert by_field["restore.rebuild_hours"]["p_loss_high"] == pytest.approx(float(high), rel=1e-9)
    low = mp_aggregate(mp_p_loss(2, 9, arr=0.019 / 4), groups)
    assert by_field["drive.arr"]["p_loss_low"] == pytest.approx(float(low), rel=1e-9)
    # d ln P / d ln x by a central difference at 40 digits.
    with mpmath.workdps(40):
        h = mpmath.mpf("1e-8")
        up = mp_aggregate(mp_p_loss(2, 9, scrub=168 * (1 + h)), groups)
        down = mp_aggregate(mp_p_loss(2, 9, scrub=168 * (1 - h)), groups)
        elasticity = (mpmath.log(up) - mpmath.log(down)) / (mpmath.log(1 + h) - mpmath.log(1 - h))
    assert by_field["restore.scrub_hours"]["elasticity"] == pytest.approx(
        float(elasticity), rel=1e-6
    )


def test_table_and_chart(runner: CliRunner) -> None:
    for columns in (80, 120):
        result = runner.invoke(
            app,
            ["sensitivity", str(TABLE4), "--layout", "RAID 5 (7+1)"],
            env={"COLUMNS": str(columns)},
        )
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        assert max(len(line) for line in lines) <= columns
        assert "Elasti" in result.stdout
        assert "█" in result.stdout
        assert "│" in result.stdout
        assert "input ×0.5" in result.stdout
        assert "input ×2" in result.stdout
        assert "base" in result.stdout


def test_csv_and_markdown(runner: CliRunner) -> None:
    result = runner.invoke(app, ["sensitivity", "--format", "csv"])
    assert result.exit_code == 0, result.stderr
    records = list(csv.DictReader(csv_lines(result.stdout)))
    assert {r["field"] for r in records} == FIELDS
    markdown = runner.invoke(app, ["sensitivity", "--format", "markdown"])
    assert markdown.exit_code == 0
    assert markdown.stdout.startswith("### ")
    assert "| Input |" in markdown.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--layout", "raid-dp"], "did you mean 'raid-dp 9'?"),
        (["--layout", "raid-dp"], "(layouts: 'raid10 2', 'raid5 8', 'raid-dp 9',"),
        (["--layout", "zzz"], "that label (layouts: 'raid10 2', 'raid5 8',"),
        (["--low", "1.5"], "--low must be between 0 and 1"),
        (["--low", "0"], "--low must be between 0 and 1"),
        (["--high", "0.5"], "--high must be above 1"),
    ],
)
def test_bad_input_exits_2_with_one_line(runner: CliRunner, args: list[str], fragment: str) -> None:
    result = runner.invoke(app, ["sensitivity", *args])
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert fragment in " ".join(result.stderr.split()), result.stderr


def test_a_move_past_a_scenario_limit_stops_at_the_limit_and_says_so(runner: CliRunner) -> None:
    """ARR 60% doubled was evaluated at 120%, latent 0.7/h at 1.4/h (newcomer review): values
    no scenario may hold. Each stops at its limit, the bar says so, and the notes name it."""
    args = ["--set", "drive.arr=60%", "--set", "drive.latent_defects_per_hour=0.7"]
    document = run_json(runner, *args)
    found = bars(document)
    assert found["drive.arr"]["high_value"] < 1.0  # below 100% of drives per year
    assert found["drive.arr"]["high_value"] == pytest.approx(1.0, rel=1e-5)
    assert found["drive.arr"]["high_capped"] is True
    assert found["drive.latent_defects_per_hour"]["high_value"] < 1.0
    assert found["drive.latent_defects_per_hour"]["high_capped"] is True
    # What a bar reports can be given back: a value a scenario may hold (the review found
    # 1.0 reported, which --set refuses).
    for field in ("drive.arr", "drive.latent_defects_per_hour"):
        again = runner.invoke(app, ["evaluate", "--set", f"{field}={found[field]['high_value']!r}"])
        assert again.exit_code == 0, again.stderr
    assert found["restore.rebuild_hours"]["high_capped"] is False
    assert found["drive.arr"]["low_capped"] is False
    # The capped case is the model at the limit, not at x2: P(loss) at that ARR from an
    # evaluation of its own.
    at_limit = runner.invoke(
        app,
        ["evaluate", "--set", f"drive.arr={found['drive.arr']['high_value']!r}", "--set",
         "drive.latent_defects_per_hour=0.7", "--format", "json"],
    )  # fmt: skip
    assert at_limit.exit_code == 0, at_limit.stderr
    layout = next(
        r for r in json.loads(at_limit.stdout)["layouts"] if r["label"] == document["layout"]
    )
    assert found["drive.arr"]["p_loss_high"] == pytest.approx(layout["p_loss_aggregate"], rel=1e-5)
    text = runner.invoke(app, ["sensitivity", *args])
    said = " ".join(text.stdout.split())
    assert "drive.arr ×2 stopped just under the most a scenario may hold: 99.9999%." in said
    assert "stopped just under the most a scenario may hold: 0.999999 " in said


def test_a_pools_notes_give_its_group_and_its_own_rebuild() -> None:
    # The newcomer review: the notes said "3 groups of 48 (46+2)" for draid2:8d:48c:2s (it
    # holds 36.8 data drives) and gave the rebuild bar a base of 77.2 h with no word that the
    # pool itself rebuilds in 35.4 h.
    result = CliRunner().invoke(
        app,
        [
            "sensitivity",
            str(ROOT / "scenarios" / "today-20tb-nl-sas.yaml"),
            "--layout",
            "draid2:8d:48c:2s",
            "-f",
            "markdown",
        ],
    )
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "3 groups of 48 (8d+2p, 2s)" in text
    assert "(46+2)" not in text
    assert "this pool rebuilds in 35.4 h" in text
