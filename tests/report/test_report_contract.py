"""The JSON and CSV contract of each report: every record's keys, in the documented order.

docs/commands.md documents these keys as a contract for scripts, so a refactor of the column
declarations (issue 9: one declaration carries the table column and its export key) must
neither drop, rename nor reorder one. The lists are written out here from the contract,
not read from the code; the values are checked by the command tests (tests/cli).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "scenarios" / "ns3574-default.yaml"
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"  # priced, with a declustered pool
LENOVO = ROOT / "scenarios" / "lenovo-s3200.yaml"  # a workload, unpriced, a baseline
WORKLOAD = ROOT / "tests" / "tui" / "tui_workload.yaml"
AGEING = ROOT / "scenarios" / "ageing-fleet.yaml"  # an ageing section (docs/ageing.md)
PRICED = ("--set", "drive.price=100", "--set", "costs.per_group=50")

COST_KEYS = [
    "purchase_cost",
    "expected_replacements",
    "replacement_cost",
    "energy_kwh",
    "energy_cost",
    "total_cost",
    "cost_per_usable_tb",
    "currency",
]
SIZED_COST_KEYS = [*COST_KEYS[:-1], "cost_per_needed_tb", "currency"]
"""An aggregate sized to hold a given TB: its TCO per TB needed too."""

COMPARISON_KEYS = [
    "label",
    "raid",
    "parity",
    "group_size",
    "data_disks_per_group",
    "groups",
    "total_disks",
    "overhead_disks",
    "rebuild_hours",
    "latent_defects_per_hour",
    "declustered_data",
    "declustered_spares",
    "rebuild_speedup",
    "fraction_lost_on_overlap",
    "exact_division",
    "usable_tb",
    "p_loss_group",
    "p_loss_aggregate",
    "p_group_lost",
    "p_sectors_lost",
    "p_group_lost_aggregate",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events_group",
    "expected_sector_loss_events",
    "degraded_hours_per_year",
    "critical_hours_per_year",
    "expected_group_losses_group",
    "expected_group_losses",
    "nomdl_bytes_per_tb",
    "losses_per_10k_groups",
    "mttdl_hours",
    "relative_risk_group",
    "relative_risk_aggregate",
    "is_baseline",
]

AGEING_KEYS = [
    "p_loss_aggregate_ageing",
    "ageing_factor",
    "p_loss_aggregate_ageing_low",
    "p_loss_aggregate_ageing_high",
    "p_loss_group_ageing",
    "p_loss_group_ageing_low",
    "p_loss_group_ageing_high",
    "ageing_pieces",
    "ageing_converged",
]

SIZING_KEYS = [
    "label",
    "raid",
    "parity",
    "group_size",
    "data_disks_per_group",
    "write_penalty",
    "read_iops",
    "write_iops",
    "backend_iops",
    "required_tb",
    "disks_for_capacity",
    "disks_for_iops",
    "disks_needed",
    "bound_by",
    "groups",
    "data_disks",
    "usable_tb",
    "iops_available",
    "rebuild_hours",
    "rebuild_source",
    "latent_defects_per_hour",
    "p_loss_group",
    "p_loss_aggregate",
    "p_group_lost",
    "p_sectors_lost",
    "expected_sector_loss_events_group",
    "p_group_lost_aggregate",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events",
    "degraded_hours_per_year",
    "critical_hours_per_year",
    "expected_group_losses_group",
    "expected_group_losses",
    "nomdl_bytes_per_tb",
]


def run(*args: str) -> str:
    """The command's stdout; it must succeed."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def json_records(*args: str, rows_key: str = "layouts") -> list[dict[str, Any]]:
    """The records of the command's JSON (``-f json``) under ``rows_key``."""
    records: list[dict[str, Any]] = json.loads(run(*args, "-f", "json"))[rows_key]
    assert records
    return records


def csv_header(*args: str) -> list[str]:
    """The CSV's header row (after the ``# Inputs`` comment)."""
    text = "".join(line for line in run(*args, "-f", "csv").splitlines(True) if line[0] != "#")
    return next(csv.reader(io.StringIO(text)))


def assert_keys(records: list[dict[str, Any]], keys: list[str]) -> None:
    """Every record has exactly ``keys``, in that order."""
    for record in records:
        assert list(record) == keys, record.get("label")


ENCLOSURE_KEYS = ["enclosures_per_group", "p_unavailable_group", "p_unavailable_aggregate"]
"""With an enclosures section (docs/domains.md): last of every record."""
SHELVES = ("--set", "enclosures.members_per_enclosure=1")


@pytest.mark.parametrize(
    ("scenario", "options", "keys"),
    [
        (DEFAULT, (), COMPARISON_KEYS),
        (TODAY, (), COMPARISON_KEYS + COST_KEYS),
        (DEFAULT, SHELVES, COMPARISON_KEYS + ENCLOSURE_KEYS),
        (AGEING, (), COMPARISON_KEYS + AGEING_KEYS),
    ],
    ids=["unpriced", "priced", "enclosures", "ageing"],
)
def test_evaluate_keys(scenario: Path, options: tuple[str, ...], keys: list[str]) -> None:
    assert_keys(json_records("evaluate", str(scenario), *options), keys)
    assert csv_header("evaluate", str(scenario), *options) == keys


@pytest.mark.parametrize(
    ("scenario", "options", "keys"),
    [
        (LENOVO, (), [*SIZING_KEYS, "relative_risk_aggregate"]),
        (WORKLOAD, PRICED, [*SIZING_KEYS, *SIZED_COST_KEYS, "relative_risk_aggregate"]),
        (
            LENOVO,
            ("--set", "ageing.weibull.shape=1.3"),
            [*SIZING_KEYS, "relative_risk_aggregate", *AGEING_KEYS],
        ),
    ],
    ids=["baseline", "priced", "ageing"],
)
def test_size_keys(scenario: Path, options: tuple[str, ...], keys: list[str]) -> None:
    assert_keys(json_records("size", str(scenario), *options), keys)
    assert csv_header("size", str(scenario), *options) == keys


SENSITIVITY_KEYS = [
    "rank",
    "field",
    "unit",
    "base_value",
    "low_value",
    "high_value",
    "p_loss_low",
    "p_loss_high",
    "swing",
    "elasticity",
    "elasticity_group",
    "low_capped",
    "high_capped",
]


@pytest.mark.parametrize("scenario", [DEFAULT, LENOVO], ids=["plain", "workload"])
def test_sensitivity_keys(scenario: Path) -> None:
    assert_keys(json_records("sensitivity", str(scenario), rows_key="bars"), SENSITIVITY_KEYS)
    assert csv_header("sensitivity", str(scenario)) == SENSITIVITY_KEYS


SWEEP_KEYS = [
    "parity",
    "group_size",
    "groups",
    "total_disks",
    "overhead_disks",
    "exact_division",
    "p_loss_group",
    "p_loss_aggregate",
    "losses_per_10k_groups",
    "data_disks",
    "data_disks_provided",
    "mission_hours",
    "p_group_lost",
    "p_sectors_lost",
    "p_group_lost_aggregate",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events_group",
    "expected_sector_loss_events",
    "degraded_hours_per_year",
    "critical_hours_per_year",
    "expected_group_losses_group",
    "expected_group_losses",
    "nomdl_bytes_per_tb",
    "extra_data_disks",
]
"""A sweep's columns; without the drives' capacity there is no nomdl_bytes_per_tb."""
VARY = ("--vary", "drive.arr=1%..2%:2")


@pytest.mark.parametrize(
    ("options", "keys"),
    [
        ((), SWEEP_KEYS),
        (("--parity", "1", *VARY), [*SWEEP_KEYS, "varied", "value"]),
        (VARY, ["label", *SWEEP_KEYS, "varied", "value"]),  # the scenario's own layouts
        ((*SHELVES, "--parity", "2", "-g", "6..9"), [*SWEEP_KEYS, *ENCLOSURE_KEYS]),
        (  # a failure rate of 0 and one above: the going-on figures null on the second only
            (*SHELVES, "--vary", "enclosures.failures_per_year=0..0.1:2"),
            ["label", *SWEEP_KEYS, "varied", "value", *ENCLOSURE_KEYS],
        ),
    ],
    ids=["sizes", "sizes-varied", "layouts-varied", "enclosures", "enclosures-varied"],
)
def test_sweep_keys(options: tuple[str, ...], keys: list[str]) -> None:
    assert_keys(json_records("sweep", str(DEFAULT), *options, rows_key="rows"), keys)
    assert csv_header("sweep", str(DEFAULT), *options) == keys


def test_sweep_keys_with_ageing() -> None:
    """A scenario with an ageing section: its figures last, after the varied value."""
    options = ("--vary", "ageing.drive_age_years_at_start=0..2:2")
    keys = ["label", *SWEEP_KEYS, "varied", "value", *AGEING_KEYS]
    assert_keys(json_records("sweep", str(AGEING), *options, rows_key="rows"), keys)
    assert csv_header("sweep", str(AGEING), *options) == keys


def test_sweep_keys_without_a_capacity(tmp_path: Path) -> None:
    """Without the drives' capacity no row has a NOMDL: the key is left out."""
    text = DEFAULT.read_text(encoding="utf-8").replace("capacity_tb: 0.3", "")
    assert "capacity_tb" not in text.replace("# Capacity", "")
    scenario = tmp_path / "no-capacity.yaml"
    scenario.write_text(text, encoding="utf-8")
    keys = [key for key in SWEEP_KEYS if key != "nomdl_bytes_per_tb"]
    assert_keys(json_records("sweep", str(scenario), rows_key="rows"), keys)


METHODS_LAYOUT_KEYS = ["label", "raid", "parity", "group_size", "groups"]
METHOD_KEYS = [
    "method",
    "name",
    "p_loss_group",
    "ratio_to_markov",
    "p_loss_aggregate",
    "ci95_low",
    "ci95_high",
    "rel_error",
    "trials",
    "estimator",
    "effective_trials",
    "max_weight_share",
    "reliable",
    "warning",
    "stopped_by",
]
FEW_TRIALS = ("--trials", "100", "--seed", "7", "--layout", "raid5 8")
"""Enough trials for every key: the keys are the contract, not the estimates."""


def test_compare_methods_keys() -> None:
    layouts = json_records("compare-methods", str(DEFAULT), *FEW_TRIALS)
    assert_keys(layouts, [*METHODS_LAYOUT_KEYS, "methods"])
    for layout in layouts:
        assert_keys(layout["methods"], METHOD_KEYS)
    assert {m["method"] for m in layouts[0]["methods"]} >= {"markov", "sim_exponential"}
    header = csv_header("compare-methods", str(DEFAULT), *FEW_TRIALS)
    assert header == METHODS_LAYOUT_KEYS + METHOD_KEYS


SIMULATION_KEYS = [
    "label",
    "raid",
    "parity",
    "group_size",
    "groups",
    "method",
    "trials",
    "hits",
    "p_loss_group",
    "ci95_low",
    "ci95_high",
    "p_loss_markov",
    "ratio_to_markov",
    "markov_in_ci95",
    "rel_error",
    "std_error",
    "p_loss_aggregate",
    "ci95_aggregate_low",
    "ci95_aggregate_high",
    "effective_trials",
    "max_weight_share",
    "reliable",
    "warning",
    "stopped_by",
    "rebuild_streams",
    "p_group_lost",
    "p_group_lost_ci95_low",
    "p_group_lost_ci95_high",
    "p_group_lost_rel_error",
    "p_group_lost_trials",
    "p_group_lost_method",
    "p_group_lost_reliable",
    "p_group_lost_warning",
    "p_group_lost_aggregate",
    "p_group_lost_ci95_aggregate_low",
    "p_group_lost_ci95_aggregate_high",
]


@pytest.mark.parametrize("method", ["auto", "plain"])
def test_simulate_keys(method: str) -> None:
    options = ("--trials", "100", "--seed", "7", "--method", method)
    assert_keys(json_records("simulate", str(DEFAULT), *options), SIMULATION_KEYS)
    assert csv_header("simulate", str(DEFAULT), *options) == SIMULATION_KEYS


EVALUATE_METHODS_KEYS = [
    "mttdl_approx_hours",
    "p_loss_mttdl",
    "ratio_mttdl",
    "p_loss_mttdl_approx",
    "ratio_mttdl_approx",
    "p_loss_no_latent",
    "ratio_no_latent",
]
SPEC_SHEET_KEYS = ["p_loss_spec_sheet", "ratio_spec_sheet"]


@pytest.mark.parametrize(
    ("scenario", "keys"),
    [
        (DEFAULT, COMPARISON_KEYS + EVALUATE_METHODS_KEYS),
        (TODAY, COMPARISON_KEYS + COST_KEYS + EVALUATE_METHODS_KEYS + SPEC_SHEET_KEYS),
    ],
    ids=["unpriced", "priced-spec-sheet"],
)
def test_evaluate_methods_keys(scenario: Path, keys: list[str]) -> None:
    assert_keys(json_records("evaluate", str(scenario), "--methods"), keys)
    assert csv_header("evaluate", str(scenario), "--methods") == keys


CANDIDATE_KEYS = [
    "role",
    "label",
    "raid",
    "parity",
    "group_size",
    "declustered_data",
    "declustered_spares",
    "groups",
    "total_disks",
    "overhead_disks",
    "usable_tb",
    "bound_by",
    "rebuild_hours",
    "latent_defects_per_hour",
    "p_loss_aggregate",
    "p_group_lost_aggregate",
    "p_sectors_lost_aggregate",
    "expected_sector_loss_events",
    "total_cost",
    "cost_per_usable_tb",
    "cost_per_needed_tb",
    "rank_cost",
    "misses",
]
"""recommend's rows (built from planner/report/recommend.py's candidate_fields)."""


def test_recommend_keys() -> None:
    scenario = str(ROOT / "scenarios" / "recommend-400tb.yaml")
    document = json.loads(run("recommend", scenario, "-f", "json"))
    assert_keys(document["candidates"], CANDIDATE_KEYS)
    assert_keys(document["front"], CANDIDATE_KEYS)
    singles = [document[k] for k in ("recommended", "nearest_cheaper", "closest")]
    assert any(singles)
    assert_keys([s for s in singles if s is not None], CANDIDATE_KEYS)
    assert csv_header("recommend", scenario) == CANDIDATE_KEYS


PLAN = ROOT / "scenarios" / "three-tier-plan.yaml"  # priced, three tiers
PLAN_ROW_KEYS = [
    "tier",
    "label",
    "total_disks",
    "usable_tb",
    "p_loss",
    "purchase_cost",
    "total_cost",
    "degraded_hours_per_year",
    "critical_hours_per_year",
    "nomdl_bytes_per_tb",
]
"""A row of a plan's totals (planner/report/plan.py's totals_columns)."""
PLAN_TOTAL_KEYS = [
    "basis",
    "tiers_independent",
    "total_disks",
    "usable_tb",
    "purchase_cost",
    "total_cost",
    "nomdl_bytes_per_tb",
    "p_loss_any_tier",
    "tiers",
    "notes",
]


def test_plan_keys() -> None:
    document = json.loads(run("evaluate", str(PLAN), "-f", "json"))
    assert list(document) == ["plan", "mission_hours", "tiers", "total"]
    assert list(document["total"]) == PLAN_TOTAL_KEYS
    assert_keys(document["total"]["tiers"], PLAN_ROW_KEYS)
    for tier in document["tiers"]:  # each tier: the tier, then a scenario's document
        assert list(tier)[:2] == ["tier", "scenario"]
        assert_keys(tier["layouts"], COMPARISON_KEYS + COST_KEYS)
    assert csv_header("evaluate", str(PLAN)) == ["tier", "in_total", *COMPARISON_KEYS, *COST_KEYS]
