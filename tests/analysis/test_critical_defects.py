"""The bound on what NS3574's chain leaves out: defects arising during a critical rebuild.

A newcomer found RAID 10 of 20 TB drives at 13 % with a 77 h and with a 440 h rebuild: the
chain counts no defect that arises on the survivor while the mirror rebuilds. The bound
counts every one as a loss; it is checked here against a 40-digit mpmath chain written in
the test (the reference n+k chain, its critical state given (N - k) lambda_ld more to loss).
"""

from __future__ import annotations

from pathlib import Path

import reference
from typer.testing import CliRunner

from planner.analysis.compare import compare_data
from planner.analysis.recommend import Recommendation, recommendation
from planner.cli.app import app
from planner.core.arrays.layouts import Layout
from planner.report.recommend_summary import summary
from planner.scenario import Scenario, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
TODAY = SCENARIOS / "today-20tb-nl-sas.yaml"


def test_the_bound_of_todays_layouts_matches_the_reference_chain() -> None:
    scenario = load_scenario(TODAY)
    data = compare_data(scenario)
    assert data.critical_defects is not None
    rates = scenario.rates()
    by_label = {r.label: r for r in data.critical_defects.readings}
    for result in data.comparison.results:
        layout = result.layout
        if layout.declustered is not None:
            continue  # the pool's sigma thins it: tests/core for the pool's chain
        expected = reference.p_loss_critical_moved(
            layout.parity,
            layout.group_size,
            rates.op_failures_per_hour,
            rates.latent_defects_per_hour,
            rates.rebuild_hours,
            scenario.mission_hours,
            defects_lost=True,
        )
        reading = by_label[layout.label]
        assert reference.relative_error(reading.p_loss_group, expected) < 1e-10
        aggregate = reference.aggregate(expected, int(result.shape.groups))
        assert reference.relative_error(reading.p_loss_aggregate, aggregate) < 1e-10
        assert reading.p_loss_group > result.p_loss_group  # a bound from above
    assert 1.4 < by_label["RAID 10"].ratio < 1.5  # 13% -> 19% aggregate


def test_the_bound_rises_with_the_rebuild_where_the_table_barely_moves() -> None:
    """The newcomer's case: a rebuild 5.7 times slower (50 MB/s under load)."""
    shown = {}
    for sets in ([], ["restore.rebuild_mb_per_s=50"]):
        data = compare_data(load_scenario(TODAY, sets))
        mirror = next(r for r in data.comparison.results if r.layout.label == "RAID 10")
        assert data.critical_defects is not None
        bound = next(r for r in data.critical_defects.readings if r.label == "RAID 10")
        shown[bool(sets)] = (mirror.p_loss_aggregate, bound.p_loss_aggregate)
    (table, bound), (slow_table, slow_bound) = shown[False], shown[True]
    assert slow_table / table < 1.1  # the chain's own figure hardly moves ...
    assert slow_bound > 1.8 * bound  # ... the bound does, as the survivor's exposure grows
    assert slow_table <= slow_bound


def test_evaluate_brackets_the_table_under_it_and_not_for_the_paper() -> None:
    result = CliRunner().invoke(app, ["evaluate", str(TODAY), "--format", "markdown"])
    assert result.exit_code == 0, result.output
    note = next(line for line in result.output.splitlines() if "critical rebuild (k" in line)
    assert "would be at most RAID 10 19%" in note
    assert "the table's P(loss) per group (RAID 10)" in note
    # the paper's 12 h rebuilds: the bound is within 1.1x of every layout, no note
    assert compare_data(load_scenario(SCENARIOS / "ns3574-default.yaml")).critical_defects is None


def test_a_given_rebuild_rate_slowed_by_a_load_is_said_to_be_taken_as_idle() -> None:
    """The newcomer's 50 MB/s measured in production became a 440 h rebuild, x3.96."""
    slowed = compare_data(load_scenario(TODAY, ["restore.rebuild_mb_per_s=50"])).notes
    said = [n for n in slowed if n.startswith("restore.rebuild_mb_per_s 50 MB/s")]
    assert said == [
        "restore.rebuild_mb_per_s 50 MB/s is taken as an idle array's rate and slowed x3.96 "
        "by restore.load: busy; if 50 MB/s was measured under your load, remove restore.load "
        "(for one run: --set restore.load=idle)."
    ]
    factor = compare_data(
        load_scenario(
            TODAY, ["restore.rebuild_mb_per_s=50", "restore.load=null", "restore.load_factor=2"]
        )
    ).notes
    assert any("slowed x2 by restore.load_factor" in n for n in factor)
    # the drive's own rate is its spec sheet's idle one, and without a load nothing slows it
    for sets in ([], ["restore.rebuild_mb_per_s=50", "restore.load=null"]):
        notes = compare_data(load_scenario(TODAY, sets)).notes
        assert not any("idle array's rate" in n for n in notes)


def _recommend_400tb(*sets: str) -> tuple[Scenario, Recommendation]:
    """recommend-400tb's search narrowed to its choice and a mirror (the search is slow)."""
    scenario = load_scenario(SCENARIOS / "recommend-400tb.yaml", list(sets))
    searched = [Layout("mirror3 3", "mirror3", 2, 3), Layout("raid10 2", "raid10", 1, 2)]
    return scenario, recommendation(scenario, searched)


def _bound_of_choice(scenario: Scenario, found: Recommendation) -> float:
    """The reference chain's bound of the recommended layout's aggregate.

    The workload's reads fall on the survivors of a critical rebuild: each meets defects
    at the group's mean x N / (N - k) (tests/analysis/test_reads_spread.py), but no more
    than a drive reading at its IOPS: 1e-15 errors per bit (8e-15 a byte) x 80 reads of
    8 KiB a second x 3,600 s. The mirror's one survivor would read 3 x 35 = 105 a second.
    """
    assert found.top is not None
    assert scenario.rates().defects_per_data_drive  # the workload makes the rate
    assert scenario.core_drive().iops == 80  # the NL-SAS drive of the cap below
    cap = 8e-15 * 80 * 8192 * 3600
    rates = found.top.layout.chain_rates(scenario.rates(), found.top.groups)
    parity, drives = found.top.layout.parity, found.top.layout.group_size
    group = reference.p_loss_critical_moved(
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        scenario.mission_hours,
        defects_lost=True,
        survivors_lld=min(rates.latent_defects_per_hour * drives / (drives - parity), cap),
    )
    return float(reference.aggregate(group, found.top.groups))


def test_recommend_says_its_choices_bound_and_that_it_stays_within_the_target() -> None:
    """The three-way mirror's 0.00074% is at most 0.0013% (1.69x): within 0.010%."""
    scenario, found = _recommend_400tb()
    assert found.top is not None
    assert found.top.layout.group_size == 3
    assert found.critical_defects is not None
    reading = found.critical_defects.readings[0]
    expected = _bound_of_choice(scenario, found)
    assert reference.relative_error(reading.p_loss_aggregate, expected) < 1e-9
    assert found.top.p_loss_aggregate < expected < 1e-4
    words = next(line for line in summary(found) if "critical rebuild. Counting" in line)
    assert f"mirror3 3's P(loss) would be at most {expected * 100:.2g}%" in words
    assert "within the target's 0.010%; the truth lies between" in words


def test_recommend_says_when_its_choices_bound_is_over_the_target() -> None:
    """A target of 0.00080%: the choice meets it in the table, its bound (0.0014%) does not."""
    scenario, found = _recommend_400tb("target.max_p_loss=0.000008")
    assert found.top is not None
    assert found.top.p_loss_aggregate <= 8e-6
    assert found.critical_defects is not None
    assert _bound_of_choice(scenario, found) > 8e-6
    words = next(line for line in summary(found) if "critical rebuild. Counting" in line)
    assert "over the target's 0.00080%" in words


def test_recommend_is_silent_where_the_bound_is_close_and_within_the_target() -> None:
    """The paper's 12 h rebuilds: the bound is within 1.1x and within the target."""
    scenario = load_scenario(SCENARIOS / "ns3574-default.yaml", ["target.max_p_loss=0.01"])
    found = recommendation(scenario, [Layout("raid-dp 16", "raid-dp", 2, 16)])
    assert found.top is not None
    assert found.critical_defects is None
    assert not any("critical rebuild. Counting" in line for line in summary(found))
