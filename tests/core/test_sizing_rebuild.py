"""Rebuild time from capacity and rate: NS3574 Figure 8 and the Demartek rebuild report.

Demartek, "Comparison Test: Storage Vendor Drive Rebuild Times and Application Performance
Implications" (2008); NS3574: IBM, "Microsoft Exchange Server 2007 and IBM System Storage
N series with RAID-DP" (2008).
"""

import statistics

import pytest

from planner.core.arrays.layouts import Layout
from planner.core.arrays.rebuild import (
    DEMARTEK_IDLE_REBUILD_MB_PER_S,
    FIGURE8_CAPACITY_TB,
    FIGURE8_REBUILD_HOURS,
    FIGURE8_REBUILD_MB_PER_S,
    LOAD_FACTORS,
    load_factor_named,
    rebuild_hours,
    rebuild_mb_per_s_from_hours,
)
from planner.core.design.sizing import Drive, PlainWorkload, restore_hours, size_layout
from planner.core.markov.rates import PAPER_RATES, Rates
from planner.core.markov.transient import p_loss_aggregate, p_loss_group


def test_hand_worked() -> None:
    # 1 TB = 1e12 bytes at 100 MB/s = 1e8 bytes/s -> 10,000 s = 2.777... h
    assert rebuild_hours(1.0, 100.0) == pytest.approx(10_000.0 / 3_600.0, rel=1e-15)
    # twice as slow under load, after a 24 h wait for a replacement drive
    assert rebuild_hours(1.0, 100.0, load_factor=2.0, delay_hours=24.0) == pytest.approx(
        24.0 + 20_000.0 / 3_600.0, rel=1e-15
    )


def test_figure8_case_is_about_an_hour_and_a_half() -> None:
    # NS3574 Figure 8: 144 GB at ~27 MB/s under load, 1 h 30 min in the log.
    # 144e9 B / 27e6 B/s = 5,333 s = 1.48 h
    hours = rebuild_hours(0.144, 27.0)
    assert hours == pytest.approx(1.48, abs=0.01)
    assert hours == pytest.approx(1.5, abs=0.05)
    assert rebuild_hours(FIGURE8_CAPACITY_TB, FIGURE8_REBUILD_MB_PER_S) == hours


def test_figure8_log_gives_the_papers_rate() -> None:
    # The log: reconstruction completed in 1:30:32 = 5,432 s; 144e9 / 5,432 = 26.5 MB/s (~27).
    logged_hours = FIGURE8_REBUILD_HOURS
    assert logged_hours == pytest.approx(5_432.0 / 3_600.0)
    rate = rebuild_mb_per_s_from_hours(0.144, FIGURE8_REBUILD_HOURS)
    assert rate == pytest.approx(26.5, abs=0.05)
    assert rate == pytest.approx(FIGURE8_REBUILD_MB_PER_S, rel=0.03)


def test_inverse_round_trip() -> None:
    assert rebuild_hours(0.9, rebuild_mb_per_s_from_hours(0.9, 7.25)) == pytest.approx(7.25)


# Demartek (2008), rebuild table (500 GB SATA), hours and minutes as printed.
IDLE = {"EMC": 5 + 1 / 60, "NetApp": 4 + 53 / 60, "Pillar": 3 + 48 / 60}
BUSY = {
    "EMC": [21 + 19 / 60, 18 + 25 / 60, 17 + 45 / 60, 23 + 33 / 60],
    "NetApp": [26 + 58 / 60, 28 + 40 / 60, 29 + 26 / 60, 27 + 32 / 60],
    "Pillar": [8 + 28 / 60, 8 + 36 / 60, 8 + 24 / 60, 9 + 42 / 60],
}


def test_demartek_idle_rate_is_plausible() -> None:
    # 500e9 B in 5 h 1 min (EMC) = 27.7 MB/s; 4 h 53 (NetApp) = 28.4; 3 h 48 (Pillar) = 36.5
    idle_rate = DEMARTEK_IDLE_REBUILD_MB_PER_S
    assert idle_rate == pytest.approx(500e9 / (IDLE["NetApp"] * 3600) / 1e6)
    assert idle_rate == pytest.approx(28.4, abs=0.05)
    idle_hours = rebuild_hours(0.5, DEMARTEK_IDLE_REBUILD_MB_PER_S)
    assert min(IDLE.values()) <= idle_hours <= max(IDLE.values())
    assert 4.0 <= idle_hours <= 5.0


def test_busy_load_factor_is_the_median_busy_over_idle_ratio() -> None:
    ratios = [b / IDLE[system] for system, times in BUSY.items() for b in times]
    # sorted: 2.21 2.23 2.26 2.55 3.54 3.67 | 4.25 4.69 5.52 5.64 5.87 6.03
    assert LOAD_FACTORS["busy"] == pytest.approx(statistics.median(ratios))
    assert LOAD_FACTORS["busy"] == pytest.approx((3.671 + 4.249) / 2, abs=1e-3)
    assert LOAD_FACTORS["busy-worst"] == pytest.approx((29 + 26 / 60) / (4 + 53 / 60))
    assert LOAD_FACTORS["idle"] == 1.0
    busy_hours = rebuild_hours(0.5, DEMARTEK_IDLE_REBUILD_MB_PER_S, LOAD_FACTORS["busy"])
    all_busy = [b for times in BUSY.values() for b in times]
    assert min(all_busy) <= busy_hours <= max(all_busy)


def test_load_factor_names() -> None:
    assert load_factor_named("Busy") == LOAD_FACTORS["busy"]
    assert load_factor_named("busy_worst") == LOAD_FACTORS["busy-worst"]
    with pytest.raises(ValueError, match=r"unknown rebuild load 'heavy'; choose one of"):
        load_factor_named("heavy")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0.0, 27.0), "capacity_tb must be a positive"),
        ((0.1, 0.0), "rebuild_mb_per_s must be a positive"),
        ((0.1, float("nan")), "rebuild_mb_per_s"),
        ((0.1, 27.0, 0.0), "load_factor must be a positive"),
        ((0.1, 27.0, 1.0, -1.0), "delay_hours must be a finite number >= 0"),
    ],
)
def test_errors(args: tuple[float, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rebuild_hours(*args)


def test_drive_rate_feeds_the_reliability_model() -> None:
    # 0.3 TB at 27 MB/s busy x 2 + 4 h delay: 4 + 2 x 3e11 / 2.7e7 / 3600 = 4 + 6.17 h
    drive = Drive(capacity_tb=0.3, iops=130.0, rebuild_mb_per_s=27.0)
    expected = 4.0 + 2.0 * 0.3e12 / 27e6 / 3_600.0
    hours, source = restore_hours(drive, PAPER_RATES, load_factor=2.0, delay_hours=4.0)
    assert hours == pytest.approx(expected)
    assert source == "drive"
    layout = Layout("RAID-DP", "raid-dp", 2, 16)
    workload = PlainWorkload(iops=1_000.0, read_fraction=0.5, capacity_tb=1.0)
    r = size_layout(
        layout, workload, drive, rates=PAPER_RATES, mission_hours=43_800.0,
        load_factor=2.0, delay_hours=4.0,
    )  # fmt: skip
    assert r.rebuild_hours == pytest.approx(expected)
    assert r.rebuild_source == "drive"
    rates = Rates(
        op_failures_per_hour=PAPER_RATES.op_failures_per_hour,
        latent_defects_per_hour=PAPER_RATES.latent_defects_per_hour,
        rebuild_hours=expected,
        scrub_hours=PAPER_RATES.scrub_hours,
    )
    p_group = p_loss_group(2, 16, rates, 43_800.0)
    assert r.p_loss_group == pytest.approx(p_group, rel=1e-12)
    assert r.p_loss_aggregate == pytest.approx(p_loss_aggregate(p_group, r.groups), rel=1e-12)


def test_load_or_delay_without_a_rate_is_an_error() -> None:
    drive = Drive(capacity_tb=0.3, iops=130.0)
    assert restore_hours(drive, PAPER_RATES) == (12.0, "rates")
    with pytest.raises(ValueError, match="needs the drive's rebuild_mb_per_s"):
        restore_hours(drive, PAPER_RATES, delay_hours=24.0)
