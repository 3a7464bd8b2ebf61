"""``planner simulate``, ``planner compare-methods`` and ``evaluate --methods`` end to end."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from csv_helpers import csv_lines
from typer.testing import CliRunner

from planner.cli import app
from planner.core.markov.transient import p_loss_group
from planner.scenario import load_default_scenario

CONTRACT_KEYS = {
    "label",
    "parity",
    "group_size",
    "method",
    "trials",
    "p_loss_group",
    "ci95_low",
    "ci95_high",
    "rel_error",
    "p_loss_aggregate",
}
RUNNER = CliRunner()
QUICK = ("--rel-error", "0.2", "--seed", "7")


def invoke(*args: str, env: dict[str, str] | None = None) -> Any:
    return RUNNER.invoke(app, list(args), env=env)


def run_json(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # no progress bar or notes next to the data
    document: dict[str, Any] = json.loads(result.stdout)
    return document


@pytest.fixture(scope="module")
def default_simulation() -> dict[str, Any]:
    """The default scenario simulated with its constant rates (exponential), to +/-20%."""
    return run_json("simulate", *QUICK)


@pytest.fixture(scope="module")
def methods() -> dict[str, Any]:
    return run_json("compare-methods", *QUICK, "--layout", "raid5 8", "--layout", "raid-dp 16")


def test_simulate_json_contract(default_simulation: dict[str, Any]) -> None:
    doc = default_simulation
    assert isinstance(doc["scenario"], str)
    assert doc["mission_hours"] == pytest.approx(5 * 8760)
    assert doc["seed"] == 7
    assert doc["distributions"] == "exponential (constant rates)"
    labels = [layout.label for layout in load_default_scenario().layouts]
    assert [x["label"] for x in doc["layouts"]] == labels
    for layout in doc["layouts"]:
        assert set(layout) >= CONTRACT_KEYS
        # auto: conditioning alone where critical states are frequent, else biased.
        assert layout["method"] == ("conditional" if layout["parity"] <= 2 else "biased")
        assert layout["effective_trials"] >= 30
        assert 0 < layout["max_weight_share"] <= 0.1
        assert layout["reliable"] is True
        assert layout["warning"] is None
        assert layout["stopped_by"] == "rel_error"
        assert layout["trials"] >= 1
        assert 0 < layout["ci95_low"] <= layout["p_loss_group"] <= layout["ci95_high"] < 1
        assert layout["p_loss_group"] <= layout["p_loss_aggregate"] <= 1
        assert layout["rel_error"] <= 0.2


def test_exponential_default_reproduces_evaluate(default_simulation: dict[str, Any]) -> None:
    """Without a distributions section the simulation is the Markov chain: exact in the CI."""
    scenario = load_default_scenario()
    rates, mission = scenario.rates(), scenario.mission_hours
    for layout in default_simulation["layouts"]:
        exact = p_loss_group(layout["parity"], layout["group_size"], rates, mission)
        assert layout["ci95_low"] <= exact <= layout["ci95_high"], layout["label"]


def test_same_seed_same_output() -> None:
    # 1,000 trials: two batches (500 + 500), so the seed carries across batches.
    args = ("simulate", "--trials", "1000", "--seed", "11", "--layout", "raid-dp 16")
    first, second = invoke(*args, "-f", "json"), invoke(*args, "-f", "json")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    other = invoke(
        "simulate", "--trials", "1000", "--seed", "12", "--layout", "raid-dp 16", "-f", "json"
    )
    assert other.exit_code == 0
    assert other.stdout != first.stdout
    assert json.loads(first.stdout)["layouts"][0]["trials"] == 1000


def test_plain_method_and_a_preset_by_set() -> None:
    doc = run_json(
        "simulate",
        "--trials",
        "2000",
        "--seed",
        "1",
        "--method",
        "plain",
        "--layout",
        "raid5 8",
        "--set",
        "distributions=elerath2009",
    )
    layout = doc["layouts"][0]
    assert doc["distributions"] == "elerath2009"
    assert layout["method"] == "plain"
    assert layout["trials"] == 2000
    assert layout["hits"] == round(layout["p_loss_group"] * 2000)


def test_untrusted_interval_is_marked_in_every_format() -> None:
    """Conditioning alone on triple parity (p ~ 1e-8) with 300 trials sees no critical state:
    the row says the interval cannot be trusted (marker, note, JSON) instead of showing a bare
    [0, 0]. (A plain Clopper-Pearson interval is exact with no loss and is not flagged.)"""
    args = ("simulate", "--trials", "300", "--seed", "1", "--method", "conditional")
    args += ("--layout", "raid-tp 12")
    doc = run_json(*args)
    layout = doc["layouts"][0]
    assert layout["hits"] == 0
    assert layout["effective_trials"] == 0
    assert layout["reliable"] is False
    assert "no trial" in layout["warning"]
    markdown = invoke(*args, "-f", "markdown")
    assert markdown.exit_code == 0, markdown.stderr
    row = next(line for line in markdown.stdout.splitlines() if line.startswith("| raid-tp"))
    assert "⚠" in row
    assert "- raid-tp 12 ⚠: no trial reached data loss" in markdown.stdout


def test_method_choices_and_plain_diagnostics() -> None:
    """Plain trials are 0/1, so the effective sample size is the number of losses and the
    largest trial carries 1 / losses of the sum: checked against the hits, not the code."""
    for method in ("auto", "conditional", "biased"):  # chosen before any trial runs
        doc = run_json("simulate", "--trials", "10", "--seed", "2", "--method", method)
        assert all(x["method"] in ("conditional", "biased") for x in doc["layouts"])
    doc = run_json(
        *("simulate", "--trials", "1000", "--seed", "2", "--method", "plain"),  # 80 losses
        *("--layout", "raid5 8"),
    )
    layout = doc["layouts"][0]
    assert layout["hits"] > 30
    assert layout["effective_trials"] == pytest.approx(layout["hits"])
    assert layout["max_weight_share"] == pytest.approx(1 / layout["hits"])


def test_simulate_table_and_notes() -> None:
    # 1,000 trials: every layout's interval trusted, as at 2,000 (no marker, no extra note).
    result = invoke("simulate", "--trials", "1000", "--seed", "3", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.stderr
    assert "P(loss)" in result.stdout
    assert "seed 3" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


def test_simulate_markdown_is_a_gfm_table() -> None:
    # 300 trials: some intervals untrusted, their rows marked and noted under the table
    result = invoke("simulate", "--trials", "300", "--seed", "3", "-f", "markdown")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    rows = [line for line in lines if line.startswith("|")]
    assert lines[0].startswith("### ")
    assert rows[1].replace("|", "").replace("-", "").replace(":", "") == ""
    width = rows[0].count("|")
    assert all(row.count("|") == width for row in rows)
    assert len(rows) == 2 + len(load_default_scenario().layouts)


def test_simulate_csv_and_output_file(tmp_path: Path) -> None:
    target = tmp_path / "sim.csv"
    result = invoke("simulate", "--trials", "200", "--seed", "3", "-f", "csv", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    records = list(csv.DictReader(csv_lines(target.read_text(encoding="utf-8"))))
    assert len(records) == len(load_default_scenario().layouts)
    assert set(records[0]) >= CONTRACT_KEYS


def test_compare_methods_ratios(methods: dict[str, Any]) -> None:
    assert methods["distributions"] == "elerath2009 shapes"  # at the scenario's means
    assert "no distributions section" in methods["distributions_note"]
    assert [x["label"] for x in methods["layouts"]] == ["raid5 8", "raid-dp 16"]
    for layout in methods["layouts"]:
        by_key = {m["method"]: m for m in layout["methods"]}
        assert set(by_key) == {
            "markov",
            "mttdl",
            "mttdl_approx",
            "no_latent",
            "sim_exponential",
            "sim_distributions",
        }
        markov = by_key["markov"]["p_loss_group"]
        for m in layout["methods"]:
            assert m["ratio_to_markov"] == pytest.approx(m["p_loss_group"] / markov)
        assert by_key["markov"]["ratio_to_markov"] == 1.0
        assert by_key["mttdl"]["ratio_to_markov"] == pytest.approx(1.0, rel=0.01)
        assert by_key["mttdl_approx"]["ratio_to_markov"] > 1.0  # leading order overestimates
        assert by_key["no_latent"]["ratio_to_markov"] < 0.01  # latent defects dominate
        sim = by_key["sim_exponential"]
        assert sim["ci95_low"] <= markov <= sim["ci95_high"]
        assert by_key["sim_distributions"]["ratio_to_markov"] < 1.0  # Weibull: fewer losses


def test_compare_methods_table_shows_ratios() -> None:
    result = invoke(
        "compare-methods",
        "--trials",
        "500",
        "--seed",
        "5",
        "-l",
        "raid5 8",
        env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Markov" in out
    assert "1.00×" in out
    assert "Simulation, elerath2009" in out
    assert "elerath2009 preset" in out  # the note saying the preset stood in


def test_compare_methods_uses_the_scenario_distributions() -> None:
    doc = run_json(
        "compare-methods",
        "--trials",
        "1000",
        "--seed",
        "5",
        "-l",
        "raid5 8",
        "--set",
        "distributions.restoration.exponential.mean_hours=24",
    )
    assert doc["distributions"] == "custom"
    # A 24 h rebuild in a 12 h scenario is another scenario: no ratio, and a note says so.
    assert "another scenario" in doc["distributions_note"]
    row = next(m for m in doc["layouts"][0]["methods"] if m["method"] == "sim_distributions")
    assert row["ratio_to_markov"] is None


def test_evaluate_methods_columns() -> None:
    doc = run_json("evaluate", "--methods")
    for layout in doc["layouts"]:
        assert layout["ratio_mttdl"] == pytest.approx(1.0, rel=0.01)
        assert layout["p_loss_mttdl_approx"] > layout["p_loss_group"]
        assert layout["p_loss_no_latent"] < layout["p_loss_group"]
    wide = invoke("evaluate", "--methods", env={"COLUMNS": "120"})
    assert wide.exit_code == 0
    assert "vs exact" in wide.stdout
    plain = invoke("evaluate", "--format", "json")
    assert "ratio_mttdl" not in plain.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--trials", "10", "--rel-error", "0.1"), "not both"),
        (("--rel-error", "0"), "--rel-error must be between 0 and 1"),
        (("--time-budget", "-1"), "--time-budget must be a positive"),
        (("--layout", "raid-dp"), "did you mean 'raid-dp 9'?"),
        (("--set", "distributions=elerth"), "did you mean 'elerath2009'?"),
        (("--method", "fancy"), "fancy"),
        (("missing.yaml",), "missing.yaml"),
    ],
)
@pytest.mark.parametrize("command", ["simulate", "compare-methods"])
def test_bad_input_exits_2(command: str, args: tuple[str, ...], message: str) -> None:
    result = invoke(command, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr


def test_compare_methods_says_when_the_time_budget_stopped_a_simulation() -> None:
    """A target of ±0.1% cannot be reached in 0.1 s: both simulations stop by the budget,
    the JSON rows say so (``stopped_by``, as ``planner simulate``'s), and so do the notes."""
    args = ("compare-methods", "-l", "raid-tp 12", "--rel-error", "0.001")
    args += ("--time-budget", "0.1", "--seed", "1")
    doc = run_json(*args)
    assert doc["target_rel_error"] == 0.001
    rows = doc["layouts"][0]["methods"]
    simulated = [m for m in rows if m["method"].startswith("sim_")]
    assert len(simulated) == 2
    assert all(m["stopped_by"] == "time_budget" and m["rel_error"] > 0.001 for m in simulated)
    assert all(m["stopped_by"] is None for m in rows if m not in simulated)
    for fmt, width in (("markdown", "80"), ("table", "400")):
        result = invoke(*args, "-f", fmt, env={"COLUMNS": width})
        assert result.exit_code == 0, result.stderr
        text = " ".join(result.stdout.split())
        for m in simulated:
            note = f"raid-tp 12, {m['name']}: stopped by the time budget at ±"
            assert note in text
        assert text.count("(target ±0.1%); raise --time-budget for more precision.") == 2


def test_report_methods_section_says_when_the_time_budget_stopped_a_simulation() -> None:
    """The report runs to ±10%; with 0.1 s a simulation that stops short of it gets the note,
    one that reaches it does not (read from the document's own table, on stdout: the text a
    file gets, without the pictures)."""
    result = invoke("report", "-o", "-", "--time-budget", "0.1")
    assert result.exit_code == 0, result.stderr
    section = result.stdout.split("## Methods cross-check")[1]
    layout = ""
    missed = 0
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 6:
            continue
        layout = cells[0] or layout
        if not cells[1].startswith("Simulation"):
            continue
        rel = float(cells[5].strip("±%")) / 100
        note = f"{layout}, {cells[1]}: stopped by the time budget at {cells[5]} (target ±10%)"
        assert (note in section) == (rel > 0.1), line
        missed += rel > 0.1
    assert section.count("stopped by the time budget") == missed


def test_simulate_marks_uneven_group_counts_as_evaluate_does() -> None:
    """42 data drives in groups of 9 data drives: 5 groups hold 45, so raid-tp 12 is
    marked 5* with the note that says why; 42 = 3 x 14 (raid-dp 16) is not marked."""
    args = ("simulate", "--trials", "100", "--seed", "3", "-l", "raid-tp 12", "-l", "raid-dp 16")
    doc = run_json(*args)
    by_label = {x["label"]: x for x in doc["layouts"]}
    assert by_label["raid-tp 12"]["groups"] == 5  # ceil(42 / 9), a number in JSON
    assert by_label["raid-dp 16"]["groups"] == 3
    note = (
        "raid-tp 12: 42 data drives do not divide evenly into 9 data drives per group; "
        "5 groups hold 3 more data drives than asked."
    )
    for fmt in ("markdown", "table"):
        result = invoke(*args, "-f", fmt, env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.stderr
        cells = {
            row[1]: row
            for line in result.stdout.splitlines()
            if (row := [c.strip() for c in line.replace("│", "|").split("|")])[1:2]
            and row[1].startswith("raid")
        }
        assert "5*" in cells["raid-tp 12"], fmt
        assert "3" in cells["raid-dp 16"], fmt
        assert "3*" not in cells["raid-dp 16"], fmt
        assert note in " ".join(result.stdout.split()), fmt
    evaluate = invoke("evaluate", "-f", "markdown").stdout
    assert note in evaluate  # the same words as evaluate's
