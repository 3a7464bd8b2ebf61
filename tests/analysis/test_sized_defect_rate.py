"""An aggregate sized for a workload takes the latent-defect rate of its own data drives.

The rate is read errors per byte x the bytes one drive reads, and a workload's reads spread
over the data drives (docs/drives.md). ``planner size`` and ``recommend`` spread them over
``aggregate.data_disks`` of the file (24 in recommend-400tb.yaml), while the aggregates they
size hold up to 2,300 data drives: each read up to 13 times fewer bytes than counted, and
sized RAID 6 read 0.14 % where its own reads give 0.049 %. And a group's drives share its
data drives' reads: each layout's chain takes a data drive's rate x (N - k) / N, the mean
over its drives (0.041 % for that RAID 6). Checked against the reference chain (40 digits)
at the rate worked out here from the workload's numbers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import reference
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from planner.analysis.inputs import scenario_inputs
from planner.analysis.recommend import recommendation
from planner.analysis.sensitivity import sensitivity_report
from planner.analysis.sizing_report import sized_results
from planner.cli.app import app
from planner.core.arrays.layouts import Layout
from planner.report.inputs import inputs_summary
from planner.scenario import load_scenario
from planner.scenario.defects import workload_read_defects

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SEARCH = SCENARIOS / "recommend-400tb.yaml"
ERRORS_PER_BYTE = 8 * 1e-15  # drive.unrecoverable_read_errors_per_bit x 8 bits
READ_BYTES_PER_S = 14_000 * 8192  # 14,000 host reads a second of 8 KiB
DRIVE_BYTES_PER_S = 80 * 8192  # a 7.2k drive's 80 IOPS: no drive reads more


def _rate(data_drives: float) -> float:
    """Latent defects per DATA drive-hour with the workload's reads over ``data_drives``."""
    return ERRORS_PER_BYTE * min(READ_BYTES_PER_S / data_drives, DRIVE_BYTES_PER_S) * 3600


def _chain_rate(data_drives: float, data_per_group: float, group_size: int) -> float:
    """Each drive's rate in the chain: a data drive's reads x the group's data drives per
    drive (every drive of these layouts serves reads), at most the drive's own IOPS."""
    share = data_per_group / group_size
    reads = min(READ_BYTES_PER_S / data_drives * share, DRIVE_BYTES_PER_S)
    return ERRORS_PER_BYTE * reads * 3600


def test_the_files_rate_is_the_same_rule_at_its_own_data_drives() -> None:
    scenario = load_scenario(SEARCH)
    reads = workload_read_defects(scenario.drive, scenario.workload)
    assert reads is not None
    assert reads.per_hour(scenario.aggregate.data_disks) == scenario.latent_defects_per_hour
    assert abs(scenario.latent_defects_per_hour / _rate(24) - 1) < 1e-12  # capped at 80 IOPS


def test_a_sized_aggregate_takes_its_own_data_drives_rate_and_the_reference_agrees() -> None:
    scenario = load_scenario(SEARCH)
    rates = scenario.rates()
    for result in sized_results(scenario) or ():
        expected_rate = _chain_rate(
            result.data_disks, result.data_disks_per_group, result.group_size
        )
        assert result.latent_defects_per_hour is not None
        assert abs(result.latent_defects_per_hour / expected_rate - 1) < 1e-12
        if result.label != "RAID 6 (10+2)":
            continue  # the pool's chain is checked in tests/core; the rate is the point here
        assert result.data_disks == 530
        group = reference.p_loss(
            2, 12, rates.op_failures_per_hour, expected_rate, result.rebuild_hours, 168, 43800
        )
        assert reference.relative_error(result.p_loss_group, group) < 1e-10
        aggregate = reference.aggregate(group, result.groups)
        assert reference.relative_error(result.p_loss_aggregate, aggregate) < 1e-10
        assert 4.0e-4 < float(aggregate) < 4.2e-4  # 0.041 %, where the file's rate gave 0.14 %


def test_recommends_candidates_take_their_own_rate_and_export_it() -> None:
    scenario = load_scenario(SEARCH)
    searched = [Layout("raid-tp 5", "raid-tp", 3, 5), Layout("mirror3 3", "mirror3", 2, 3)]
    found = recommendation(scenario, searched)
    rates = scenario.rates()
    for candidate in found.meeting:
        data_drives = candidate.groups * candidate.layout.data_disks_per_group
        assert candidate.latent_defects_per_hour is not None
        layout = candidate.layout
        own = _chain_rate(data_drives, layout.data_disks_per_group, layout.group_size)
        assert abs(candidate.latent_defects_per_hour / own - 1) < 1e-12
        group = reference.p_loss(
            layout.parity,
            layout.group_size,
            rates.op_failures_per_hour,
            own,
            candidate.rebuild_hours,
            168,
            43800,
        )
        aggregate = reference.aggregate(group, candidate.groups)
        assert reference.relative_error(candidate.p_loss_aggregate, aggregate) < 1e-9
    wide = next(c for c in found.meeting if c.layout.group_size == 5)
    assert wide.latent_defects_per_hour is not None
    assert wide.latent_defects_per_hour < 0.6 * scenario.latent_defects_per_hour  # 310 drives
    result = CliRunner().invoke(app, ["recommend", str(SEARCH), "-f", "json", "--top", "3"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["candidates"]
    assert all(row["latent_defects_per_hour"] > 0 for row in rows)


def test_the_inputs_line_of_a_sized_result_says_each_aggregate_takes_its_own() -> None:
    scenario = load_scenario(SEARCH)
    found = recommendation(scenario, [Layout("mirror3 3", "mirror3", 2, 3)])
    line = inputs_summary(found.inputs)
    assert (
        "x the workload's reads over each aggregate's own data drives and their groups' "
        "drives (" in line
    )
    assert "/data drive-h over aggregate.data_disks, 24)" in line
    # evaluate's table is the file's aggregate: its one rate, as before
    assert "own data drives" not in inputs_summary(scenario_inputs(scenario))
    # a given rate is nobody's reads: every aggregate takes it
    given_rate = load_scenario(SEARCH, ["drive.latent_defects_per_hour=1e-5"])
    assert workload_read_defects(given_rate.drive, given_rate.workload) is None
    for result in sized_results(given_rate) or ():
        assert result.latent_defects_per_hour == 1e-5


@given(
    fewer=st.floats(min_value=1.0, max_value=1e5),
    more=st.floats(min_value=1.0, max_value=1e5),
)
def test_more_data_drives_never_raise_each_ones_rate(fewer: float, more: float) -> None:
    fewer, more = sorted((fewer, more))
    scenario = load_scenario(SEARCH)
    reads = workload_read_defects(scenario.drive, scenario.workload)
    assert reads is not None
    assert reads.per_hour(more) <= reads.per_hour(fewer)


def test_the_tornado_of_a_sized_aggregate_moves_its_own_rate_the_right_way() -> None:
    """The newcomer's review: on recommend-400tb, halving drive.latent_defects_per_hour
    raised the sized RAID 6's risk 1.48x, as the bar halved the file's rate (1.9e-5), 3
    times the sized aggregate's own (6.2e-6). The bar now starts from the aggregate's own
    rate, every bar moves the risk the way its input does, and data_disks, which the sizing
    overrides, has no bar."""
    scenario = load_scenario(SEARCH)
    report = sensitivity_report(scenario, "RAID 6 (10+2)")
    bars = {bar.field.name: bar for bar in report.figures.values()}
    assert "aggregate.data_disks" not in bars
    latent = bars["drive.latent_defects_per_hour"]
    assert abs(latent.base_value / _chain_rate(530, 10, 12) - 1) < 1e-9
    for bar in bars.values():  # each input here raises the risk as it grows
        assert bar.risk_low < 1 < bar.risk_high, bar
    rates = scenario.rates()
    low = reference.p_loss(
        2,
        12,
        rates.op_failures_per_hour,
        _chain_rate(530, 10, 12) / 2,
        rates.rebuild_hours,
        168,
        43800,
    )
    expected = reference.aggregate(low, 53) / report.sensitivity.p_loss_aggregate
    assert reference.relative_error(latent.risk_low, expected) < 1e-9


def test_a_sweep_of_data_drives_spreads_the_reads_as_evaluate_set_does() -> None:
    """The sweep kept the file's rate at every point: RAID 10 over 2,000 data drives read
    47.5% there and 7.0% in ``evaluate --set aggregate.data_disks=2000`` (the review)."""
    args = ["sweep", str(SEARCH), "--vary", "aggregate.data_disks=24..2000:3", "-f", "json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rows"]
    assert len(rows) == 6
    for row in rows:
        sets = ["--set", f"aggregate.data_disks={int(row['value'])}"]
        shown = CliRunner().invoke(app, ["evaluate", str(SEARCH), *sets, "-f", "json"])
        assert shown.exit_code == 0, shown.output
        layout = next(x for x in json.loads(shown.output)["layouts"] if x["label"] == row["label"])
        assert abs(row["p_loss_group"] / layout["p_loss_group"] - 1) < 1e-12, row
    wide = [r for r in rows if r["label"] == "RAID 6 (10+2)"]
    assert wide[0]["p_loss_group"] > wide[1]["p_loss_group"] > wide[2]["p_loss_group"]


def test_recommend_says_when_the_iops_set_the_drives_and_shows_bound_by() -> None:
    """400 TB asked, 2,412 TB recommended: nothing said it was the IOPS (the review)."""
    result = CliRunner().invoke(app, ["recommend", str(SEARCH), "-f", "markdown"])
    assert result.exit_code == 0, result.output
    assert "mirror3 3: 402 drives (as many as the IOPS need: 2,412.0 TB usable), P(loss)" in (
        result.output
    )
    header = next(line for line in result.output.splitlines() if line.startswith("| Layout"))
    assert "| Bound by |" in header
    rows = [line for line in result.output.splitlines() if line.startswith("| mirror3 3 |")]
    assert rows
    assert "| IOPS |" in rows[0]
    # without a workload nothing bounds the drives but aggregate.data_disks: no column
    paper = SCENARIOS / "ns3574-default.yaml"
    plain = CliRunner().invoke(app, ["recommend", str(paper), "-f", "markdown"])
    assert "Bound by" not in plain.output
    assert "as many as the IOPS need" not in plain.output


def test_the_words_around_sized_and_heavy_read_figures_say_what_they_are() -> None:
    """The second review: the sized tornado said its bars were planner evaluate's (24 data
    drives); a spec-sheet reading 0.46x the table's was called "the pessimistic one"; a
    closest layout at ≈100% in the table read "P(loss) 100%" in the summary."""
    tornado = CliRunner().invoke(app, ["sensitivity", str(SEARCH), "-f", "markdown"])
    assert tornado.exit_code == 0, tornado.output
    assert "each bar is planner size's P(loss)" in tornado.output
    assert "planner evaluate's P(loss)" not in tornado.output
    assert "data drives sized for the workload" in tornado.output
    # reads heavy enough that the table's defects outweigh the spec sheet's (at 5e-16 per
    # bit: at 1e-15 the reading is 0.54x the table's since each drive's rate is its group's
    # mean, too close to say)
    heavy = [
        "--set",
        "workload.io_size_kb=1000000",
        "--set",
        "drive.unrecoverable_read_errors_per_bit=5e-16",
    ]
    found = CliRunner().invoke(app, ["recommend", str(SEARCH), *heavy])
    assert found.exit_code == 0, found.output
    said = " ".join(found.output.split())
    reading = re.search(r"P\(loss\) would be [\d.]+%, ([\d.]+)× its P\(loss\) in the table", said)
    assert reading is not None
    assert float(reading.group(1)) < 1
    assert "is the pessimistic one" not in said
    assert "here the table is the higher" in said
    hopeless = CliRunner().invoke(app, ["recommend", str(SEARCH), "--set", "workload.iops=1e12"])
    assert hopeless.exit_code == 2
    assert "misses P(loss) ≈100% >" in hopeless.output
    assert "P(loss) 100%" not in hopeless.output
