"""Mutated shipped scenarios and ``--set`` overrides through the loader and ``evaluate``.

Whatever the text, the outcome is one of two: a ScenarioError (exit 2) that is one line
under 300 characters naming the file, line and column; or a scenario that ``planner
evaluate`` turns into strict JSON with every probability in [0, 1]. Never another
exception, never a warning, never a hang (each example has a deadline: fuzz_support).
"""

from __future__ import annotations

from pathlib import Path

from fuzz_support import (
    FUZZ,
    REPO,
    NoWarnings,
    assert_one_line,
    assert_sound_json,
    mutated_scenario,
    yaml_values,
)
from hypothesis import example, given
from hypothesis import strategies as st
from typer.testing import CliRunner

from planner.cli.app import app
from planner.scenario import ScenarioError, load_default_scenario, load_scenario_text

SOURCE = "fuzz.yaml"

# Errors about the whole file rather than one spot in it.
_NO_POSITION = ("the scenario is empty", "the file has", "not valid YAML: ")


def evaluate_json(
    overrides: list[str], path: Path | None = None, command: str = "evaluate"
) -> None:
    """``planner evaluate -f json`` in-process: exit 0 with sound JSON, or exit 2, one line."""
    args = [command, "-f", "json"] + [f"--set={o}" for o in overrides]
    if path is not None:
        args.append(str(path))
    result = CliRunner().invoke(app, args)
    if result.exit_code == 2:
        (line,) = result.stderr.splitlines()
        assert_one_line(line)
        return
    assert result.exit_code == 0, (result.exit_code, result.stderr, result.exception)
    assert result.stderr == ""
    assert_sound_json(result.stdout)


@FUZZ
@given(mutated_scenario())
@example(("drive-recursive", "drive: &m\n  <<: *m\n"))
@example(("bomb", "a: &a [x,x,x]\nb: &b [*a,*a,*a]\nc: [*b,*b,*b,*b]\n"))
def test_a_mutated_scenario_loads_cleanly_or_fails_in_one_line(case: tuple[str, str]) -> None:
    _, text = case
    with NoWarnings():
        try:
            scenario = load_scenario_text(text, SOURCE)
        except ScenarioError as error:
            check_error(error)
            return
        assert scenario.layouts


def check_error(error: ScenarioError) -> None:
    """One line, naming the file, and a line and column unless about the whole file."""
    assert error.path == SOURCE
    assert_one_line(str(error))
    whole_file = error.message.startswith(_NO_POSITION) or "missing required" in error.message
    assert whole_file or error.line is not None, str(error)


@FUZZ
@given(mutated_scenario())
def test_a_mutated_scenario_that_loads_evaluates_soundly(case: tuple[str, str]) -> None:
    _, text = case
    try:
        scenario = load_scenario_text(text, SOURCE)
    except ScenarioError:
        return
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        with NoWarnings():
            evaluate_json([], path)
            if scenario.workload is not None:
                evaluate_json([], path, "size")


_FIELDS = [
    "mission_years", "drive.arr", "drive.afr", "drive.mtbf_hours",
    "drive.latent_defects_per_hour", "drive.read_errors_per_byte", "drive.bytes_read_per_hour",
    "drive.capacity_tb", "restore.rebuild_hours", "restore.scrub_hours",
    "restore.rebuild_mb_per_s", "restore.replace_delay_hours", "aggregate.data_disks",
    "layouts[0].parity", "layouts[0].group_size", "layouts[1].raid", "layouts[2].label",
    "baseline", "name", "layouts", "drive", "nonsense.key", "layouts[99].parity",
    # sections added since the suite was written (issue 21)
    "restore.parallel_rebuilds", "restore.on_unreadable_sector", "drive.model", "drive.price",
    "drive.watts", "costs.energy_per_kwh", "costs.currency", "costs.per_group",
    "layouts[0].children", "layouts[0].data", "layouts[0].spares",
]  # fmt: skip

_SEARCH_FIELDS = [
    "target.max_p_loss", "target.min_nines", "target.max_cost", "target.max_drives",
    "target.usable_tb", "search.mirrors", "search.parity", "search.group_sizes",
    "search.declustered", "search.draid_data", "search.draid_children", "search.draid_spares",
    "search.write_penalty", "drive.price", "layouts[1].children", "layouts[1].spares",
]  # fmt: skip
"""What ``planner recommend`` reads: the target, the search space, prices, the pools."""


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(_SEARCH_FIELDS), yaml_values()), min_size=1, max_size=3))
@example([("search.draid_data", "[1, 2]"), ("search.draid_children", "[3]")])
@example([("target.max_cost", "1e308")])
@example([("target.max_p_loss", "1e-400")])
def test_a_search_runs_cleanly_or_fails_in_one_line(pairs: list[tuple[str, str]]) -> None:
    """``planner recommend -f json`` on the shipped search scenario with overridden target,
    search and pools: sound JSON (exit 0, or 2 when nothing meets the target), or one line."""
    overrides = [f"{field}={value}" for field, value in pairs]
    with NoWarnings():
        evaluate_json(overrides, REPO / "scenarios" / "recommend-400tb.yaml", "recommend")


@FUZZ
@given(
    st.lists(st.tuples(st.sampled_from(_FIELDS), yaml_values()), min_size=1, max_size=3).map(
        lambda pairs: [f"{field}={value}" for field, value in pairs]
    )
)
@example(["drive.arr=5e-324"])
@example(["restore.scrub_hours=1e-300"])
@example(["mission_years=5\nx"])
def test_overrides_load_cleanly_or_fail_in_one_line(overrides: list[str]) -> None:
    with NoWarnings():
        try:
            load_default_scenario(overrides)
        except ScenarioError as error:
            assert_one_line(str(error))
            return
        evaluate_json(overrides)
