"""A workload's reads make a DATA drive's defect rate; a group's chain takes its drives' mean.

The reads are spread over the aggregate's data drives: each reads r = errors per byte x
min(read IOPS / D, drive IOPS) x I/O bytes x 3,600 a data drive-hour. A group of N drives,
d of them data, meets d x r defects an hour, so the chain, which gives every drive of the
group one rate, must take r x d / N: counting r on every drive overcounted by N / d (2x for
RAID 10, 1.2x for RAID 6 (10+2)). Here the rate is worked out by hand from the workload's
numbers and the chain is the 40-digit reference one (tests/reference.py); every command
that shows a layout's figure must give the same one.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import reference
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from planner.analysis.recommend import recommendation
from planner.analysis.sizing_report import sized_results
from planner.cli.app import app
from planner.core.arrays.declustered import Declustered
from planner.core.arrays.layouts import Layout
from planner.core.markov.rates import PAPER_RATES
from planner.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SEARCH = SCENARIOS / "recommend-400tb.yaml"
ERRORS_PER_BYTE = 8 * 1e-15  # 8 x the spec sheet's 1e-15 errors per bit
READ_IOPS = 14_000.0  # 20,000 host IOPS, 70 % reads
IO_BYTES = 8192.0  # workload.io_size_kb's default, 8 KiB
DRIVE_IOPS = 80.0  # a 7.2k drive
MISSION_HOURS = 5 * 8760.0
SCRUB_HOURS = 168.0


def _data_drive_rate(data_drives: float) -> float:
    """Latent defects per DATA drive-hour, by hand: the reads over ``data_drives``."""
    return ERRORS_PER_BYTE * min(READ_IOPS / data_drives, DRIVE_IOPS) * IO_BYTES * 3600


def _drive_rate(data_drives: float, share: float) -> float:
    """Each drive's rate when every drive of its group serves reads, by hand: a data
    drive's worth of reads x ``share`` (data drives per drive), at most the drive's IOPS."""
    reads = min(READ_IOPS / data_drives * share, DRIVE_IOPS)
    return ERRORS_PER_BYTE * reads * IO_BYTES * 3600


def _with_raid10(tmp_path: Path) -> Path:
    """recommend-400tb.yaml with RAID 10 among its layouts (RAID 6 (10+2) and a pool)."""
    text = SEARCH.read_text(encoding="utf-8").replace(
        "layouts:\n", "layouts:\n  - raid: raid10\n    label: RAID 10\n", 1
    )
    path = tmp_path / "reads.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*args, "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def _layouts(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["label"]: row for row in document["layouts"]}


def test_evaluate_is_the_reference_chain_at_the_hand_worked_rate(tmp_path: Path) -> None:
    """RAID 10 (1+1), RAID 6 (10+2) and draid2:8d:48c:2s over the file's 24 data drives."""
    path = _with_raid10(tmp_path)
    scenario = load_scenario(path)
    assert scenario.drive.latent_defects_per_hour is None  # the workload makes the rate
    rows = _layouts(_json("evaluate", str(path)))
    r = _data_drive_rate(24)  # 14,000 / 24 reads/s is over 80: capped
    lop = 0.01 / 8760
    # (label, parity, drives, data drives per drive, sigma): a pool's data capacity is
    # (C - s) d / (d + p) drives of its C children; sigma, the share of a defect's stripes
    # that hold both failed drives, (w - 1)(w - 2) / ((C - 1)(C - 2)) for p = 2, w = d + p
    cases = [
        ("RAID 10", 1, 2, Fraction(1, 2), 1.0),
        ("RAID 6 (10+2)", 2, 12, Fraction(10, 12), 1.0),
        ("draid2:8d:48c:2s", 2, 48, Fraction(46 * 8, 10) / 48, 9 * 8 / (47 * 46)),
    ]
    for label, parity, drives, share, sigma in cases:
        row = rows[label]
        chain_rate = _drive_rate(24, float(share))  # every drive reads, each capped
        group = reference.p_loss(
            parity,
            drives,
            lop,
            chain_rate,
            row["rebuild_hours"],
            SCRUB_HOURS,
            MISSION_HOURS,
            share=sigma,
        )
        assert reference.relative_error(row["p_loss_group"], group) < 1e-9, label
        aggregate = reference.aggregate(group, row["groups"])
        assert reference.relative_error(row["p_loss_aggregate"], aggregate) < 1e-9, label
        assert abs(row["latent_defects_per_hour"] / chain_rate - 1) < 1e-12, label
    # 583 reads a second for each of 24 data drives: every drive of each layout is
    # saturated at its 80 IOPS, so each meets a capped data drive's rate r (capping each
    # data drive before a mirror's copies shared its reads took RAID 10 at r / 2)
    assert abs(rows["RAID 10"]["latent_defects_per_hour"] / r - 1) < 1e-12


def test_every_command_gives_a_layout_the_same_figure(tmp_path: Path) -> None:
    """evaluate, sweep (--vary, and --parity/--group-sizes), size and recommend agree."""
    path = _with_raid10(tmp_path)
    scenario = load_scenario(path)
    sized = {row.label: row for row in sized_results(scenario) or ()}
    for label in ("RAID 10", "RAID 6 (10+2)"):
        data_drives = round(sized[label].data_disks)
        at = ["--set", f"aggregate.data_disks={data_drives}"]
        shown = _layouts(_json("evaluate", str(path), *at))[label]
        assert abs(sized[label].p_loss_aggregate / shown["p_loss_aggregate"] - 1) < 1e-12
        assert sized[label].latent_defects_per_hour == shown["latent_defects_per_hour"]
        group = _layouts(_json("size", str(path)))[label]
        assert abs(group["p_loss_aggregate"] / shown["p_loss_aggregate"] - 1) < 1e-12
        vary = f"aggregate.data_disks={data_drives}..{data_drives}:1"
        swept = _json("sweep", str(path), "--vary", vary)["rows"]
        row = next(x for x in swept if x["label"] == label)
        assert abs(row["p_loss_group"] / shown["p_loss_group"] - 1) < 1e-12
        parity, size = (1, 2) if label == "RAID 10" else (2, 12)
        grid = _json("sweep", str(path), *at, "-k", str(parity), "-g", str(size), "--all")
        cell = grid["rows"][0]
        assert abs(cell["p_loss_group"] / shown["p_loss_group"] - 1) < 1e-12
    loose = load_scenario(path, ["target.max_p_loss=0.5"])
    found = recommendation(loose, [Layout("raid6 12", "raid6", 2, 12)])
    assert found.top is not None
    own = sized["RAID 6 (10+2)"]
    assert abs(found.top.p_loss_aggregate / own.p_loss_aggregate - 1) < 1e-12
    assert found.top.latent_defects_per_hour == own.latent_defects_per_hour


def test_a_swept_given_rate_is_every_drives_not_the_workloads(tmp_path: Path) -> None:
    """``--vary drive.latent_defects_per_hour`` on a workload scenario: the rows are
    ``evaluate --set`` of that rate (they took the workload's reads instead)."""
    path = _with_raid10(tmp_path)
    swept = _json("sweep", str(path), "--vary", "drive.latent_defects_per_hour=1e-5..4e-5:2")
    assert len(swept["rows"]) == 6
    for row in swept["rows"]:
        given = ["--set", f"drive.latent_defects_per_hour={row['value']!r}"]
        shown = _layouts(_json("evaluate", str(path), *given))[row["label"]]
        assert abs(row["p_loss_group"] / shown["p_loss_group"] - 1) < 1e-12, row


LAYOUTS = st.one_of(
    st.builds(
        lambda k, extra: Layout("n+k", None, k, k + extra),
        st.integers(min_value=1, max_value=3),
        st.integers(min_value=1, max_value=27),
    ),
    st.builds(
        lambda d, s, c: Layout("pool", "draid2", 2, max(c, d + 2 + s), Declustered(d, s)),
        st.integers(min_value=2, max_value=16),
        st.integers(min_value=0, max_value=3),
        st.integers(min_value=4, max_value=96),
    ),
)


@settings(max_examples=200)
@given(layout=LAYOUTS, rate=st.floats(min_value=0.0, max_value=0.5), groups=st.integers(1, 50))
def test_a_chain_never_takes_more_than_a_data_drives_rate(
    layout: Layout, rate: float, groups: int
) -> None:
    spread = PAPER_RATES.with_read_defects(rate)
    chain = layout.chain_rates(spread, groups)
    assert chain.latent_defects_per_hour <= rate
    assert not chain.defects_per_data_drive
    # a rate given per drive is no workload's: bit-identical to the chain without a flag
    given = PAPER_RATES.with_latent_defects(rate)
    assert layout.chain_rates(given, groups) == layout.chain_rates(
        PAPER_RATES.__class__(**{**PAPER_RATES.__dict__, "latent_defects_per_hour": rate}),
        groups,
    )
    assert layout.chain_rates(given, groups).latent_defects_per_hour == rate


def test_a_given_rate_and_given_reads_do_not_move() -> None:
    """drive.latent_defects_per_hour, drive.bytes_read_per_hour: per-drive figures."""
    for sets in (["drive.latent_defects_per_hour=2e-5"], ["drive.bytes_read_per_hour=2.4e9"]):
        scenario = load_scenario(SEARCH, sets)
        assert not scenario.rates().defects_per_data_drive
        rows = _layouts(_json("evaluate", str(SEARCH), *[x for s in sets for x in ("--set", s)]))
        assert rows["RAID 6 (10+2)"]["latent_defects_per_hour"] == scenario.latent_defects_per_hour
    assert load_scenario(SEARCH).rates().defects_per_data_drive


def test_the_critical_bound_gives_the_survivors_every_read(tmp_path: Path) -> None:
    """With k drives down a group's reads fall on its N - k survivors: each meets defects
    at N / (N - k) times the group's mean, a data drive's full rate r for a traditional
    group (RAID 10's survivor reads everything). The bound of the critical rebuild counts
    those: at the mean it undercounted them, 2x for a mirror (h/reads' report). No survivor
    reads more than a drive can: here every drive is saturated (14,000 reads a second on
    48 or 28.8 drives' worth at 80 IOPS), so each survivor meets the capped rate, where
    the bound had counted a RAID 6 survivor at 12/10 of it."""
    path = _with_raid10(tmp_path)
    scenario = load_scenario(path, ["restore.rebuild_hours=400"])  # a bound worth saying
    from planner.analysis.compare import compare_data

    data = compare_data(scenario)
    assert data.critical_defects is not None
    by_label = {reading.label: reading for reading in data.critical_defects.readings}
    lop = 0.01 / 8760
    for label, parity, drives, share in (
        ("RAID 10", 1, 2, Fraction(1, 2)),
        ("RAID 6 (10+2)", 2, 12, Fraction(10, 12)),
    ):
        mean = _drive_rate(24, float(share))
        expected = reference.p_loss_critical_moved(
            parity,
            drives,
            lop,
            mean,
            400.0,
            MISSION_HOURS,
            defects_lost=True,
            survivors_lld=min(mean * drives / (drives - parity), _drive_rate(1, 1e9)),  # the cap
        )
        assert reference.relative_error(by_label[label].p_loss_group, expected) < 1e-10, label


def test_an_uneven_layout_spreads_the_reads_over_the_data_drives_it_has(
    tmp_path: Path,
) -> None:
    """A newcomer's review: RAID 6 (8+2) on ``aggregate.data_disks`` 17 or 24 is the same
    array (3 groups, 24 data drives, the same workload), but evaluate spread the reads over
    17 in one case and 24 in the other: 38% more risk for the same hardware. The reads
    spread over the data drives the layout has, groups x d (as size and recommend do).
    Here 6,000 host IOPS, 70% reads: 4,200 reads a second, under the drives' 80 IOPS each
    over 60 data drives (70 a drive), so the rate follows the count."""
    path = _with_raid10(tmp_path)
    reads = 6000 * 0.7
    lop = 0.01 / 8760
    for asked in (56, 60):  # RAID 6 (10+2): 6 groups either way, 60 data drives
        sets = ["--set", "workload.iops=6000", "--set", f"aggregate.data_disks={asked}"]
        rows = _layouts(_json("evaluate", str(path), *sets))
        row = rows["RAID 6 (10+2)"]
        assert row["groups"] == 6
        own = ERRORS_PER_BYTE * (reads / 60) * IO_BYTES * 3600  # by hand: 60 data drives
        chain_rate = own * 10 / 12
        assert abs(row["latent_defects_per_hour"] / chain_rate - 1) < 1e-12, asked
        group = reference.p_loss(
            2, 12, lop, chain_rate, row["rebuild_hours"], SCRUB_HOURS, MISSION_HOURS
        )
        assert reference.relative_error(row["p_loss_group"], group) < 1e-9, asked
        swept = _json("sweep", str(path), *sets, "-k", "2", "-g", "12", "--all")["rows"][0]
        assert abs(swept["p_loss_group"] / row["p_loss_group"] - 1) < 1e-12, asked
        mirror = rows["RAID 10"]  # 28 or 30 pairs: each its own count
        pairs_own = ERRORS_PER_BYTE * (reads / mirror["groups"]) * IO_BYTES * 3600
        assert abs(mirror["latent_defects_per_hour"] / (pairs_own / 2) - 1) < 1e-12, asked


def test_simulate_writes_off_the_workloads_defects_for_p_group_lost() -> None:
    """A re-check's finding: with a workload, ``simulate`` gave P(group lost) = P(loss)
    (its run with defects off got them back from the workload's reads): 0.0023% for RAID 6
    (10+2) where evaluate gives 0.000051%."""
    shown = _layouts(_json("evaluate", str(SEARCH)))
    simulated = _json("simulate", str(SEARCH), "--seed", "1", "--layout", "RAID 6 (10+2)")
    row = simulated["layouts"][0]
    exact = shown["RAID 6 (10+2)"]["p_group_lost"]
    assert row["p_group_lost"] < 0.1 * row["p_loss_group"]
    assert row["p_group_lost_ci95_low"] <= exact <= row["p_group_lost_ci95_high"]


def test_the_data_disks_elasticity_counts_the_reads_they_share() -> None:
    """A re-check's finding: the fixed aggregate's tornado gave aggregate.data_disks an
    elasticity of +1.00 beside its bar of 0.977x / 1.04x. More data drives make more groups
    (P(loss) of the aggregate up, elasticity ~1) but share the workload's reads (each
    drive's defect rate down, elasticity -1 x the group's to lambda_ld). The reference:
    the aggregate's P(loss) with groups and the drives' reads both following D, groups
    continuous, a central difference of the 40-digit chain."""
    import mpmath

    from planner.analysis.sensitivity import sensitivity_report
    from planner.core.design.sweep_points import Parameter

    path = Path(__file__).resolve().parents[1] / "tui" / "tui_workload_reads.yaml"
    report = sensitivity_report(load_scenario(path), "RAID 6 (8+2)", fixed=True)
    result = report.sensitivity
    bar = next(b for b in result.bars if b.parameter is Parameter.DATA_DISKS)
    rates, groups = result.point.rates, result.groups

    def p_aggregate(h: float) -> mpmath.mpf:
        lld = rates.latent_defects_per_hour * mpmath.exp(-h)  # the reads over e^h x drives
        group = reference.p_loss(
            2, 10, rates.op_failures_per_hour, lld, rates.rebuild_hours, 168, MISSION_HOURS
        )
        return 1 - (1 - group) ** (groups * mpmath.exp(h))

    with mpmath.workdps(40):
        step = mpmath.mpf("1e-4")
        expected = (mpmath.log(p_aggregate(step)) - mpmath.log(p_aggregate(-step))) / (2 * step)
    assert abs(bar.elasticity - float(expected)) < 1e-6, (bar.elasticity, expected)
    assert bar.elasticity < 0.2  # not the +1.00 of groups alone
