"""Every figure ``planner evaluate`` shows moves the right way, one scenario input at a time.

The core's direction properties move one rate of one chain (tests/core/test_core_properties.py,
test_loss_figures.py, test_availability.py, test_correlated_directions.py, ...). These move
one *scenario input*, as ``--set`` does, through the analysis layer that ``planner evaluate
-f json`` and the TUI's table render (:func:`planner.analysis.compare.compare_data`), and
read every figure it gives: the rebuild time the scenario derives from a drive's rate, its
load, the wait for a replacement and its capacity (a pool's speed-up, and its wait when every
distributed spare is taken); the aggregate's groups; a layout's parity at the same width; a
pool's spares; the defect rate of correlated drives; a plan's tier.

Left out where a figure may fall, as the docs say: P(sectors lost) and the sector-loss
events with longer rebuilds (docs/loss.md: whole-group losses come first); the spec-sheet
method with a slower rebuild (docs/drives.md: its reads reach fewer bits by the mission's
end); the degraded hours with less parity (docs/availability.md: a lost group is restored
at once). Under correlated failures the defects leave the expected whole-group losses and
the hours alone: a shock may fail the defect's holder as any drive, so the drives down do
not depend on the defects (docs/correlated.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped import PLANS, SINGLE_AGGREGATE

from planner.analysis.compare import compare_data
from planner.analysis.plan import plan_comparison
from planner.scenario import Scenario, load_plan, load_scenario, load_scenario_text

SLACK = 1e-9
"""Relative slack: two exact evaluations of different matrices."""

SETTINGS = settings(max_examples=10, deadline=None)

RISK = ("p_loss_group", "p_loss_aggregate", "p_group_lost", "p_group_lost_aggregate", "losses")
"""P(loss) and P(group lost), a group's and the aggregate's, and the losses per 10,000 groups."""
GOING_ON = ("group_losses_group", "group_losses", "critical_hours", "degraded_hours")
"""The going-on chain's figures (docs/availability.md)."""
SECTORS = ("p_sectors_lost", "p_sectors_lost_aggregate", "events_group", "events")
"""P(sectors lost) and the expected sector-loss events, a group's and the aggregate's."""
METHODS = ("mttdl", "mttdl_approx", "no_latent")
"""``evaluate --methods``: the MTTDL approximations and the chain without defects."""
INVERSE_MTTDL = ("1/mttdl_hours", "1/mttdl_approx_hours")
"""The MTTDLs as rates: they must not rise, so their inverses must not fall."""


def shown(scenario: Scenario) -> dict[str, float]:
    """Every figure of every layout the comparison shows, by ``label figure``."""
    data = compare_data(scenario, methods=True)
    found: dict[str, float] = {}
    for r in data.comparison.results:
        lost = r.availability
        assert lost is not None
        figures = {
            "p_loss_group": r.p_loss_group,
            "p_loss_aggregate": r.p_loss_aggregate,
            "p_group_lost": r.p_group_lost,
            "p_group_lost_aggregate": r.p_group_lost_aggregate,
            "losses": r.losses_per_10k_groups,
            "p_sectors_lost": r.p_sectors_lost,
            "p_sectors_lost_aggregate": r.p_sectors_lost_aggregate,
            "events_group": r.expected_sector_loss_events_group,
            "events": r.expected_sector_loss_events,
            "group_losses_group": lost.expected_group_losses_group,
            "group_losses": lost.expected_group_losses,
            "critical_hours": lost.critical_hours_per_year,
            "degraded_hours": lost.degraded_hours_per_year,
            "nomdl": lost.nomdl_bytes_per_tb or 0.0,
            "1/mttdl_hours": 1 / r.mttdl_hours,
        }
        if r.independent is not None:
            figures["independent"] = r.independent.p_loss_aggregate
        methods = (data.methods or {})[r.layout.label]
        figures["1/mttdl_approx_hours"] = 1 / methods.mttdl_approx_hours
        for estimate in methods.estimates:
            figures[estimate.key] = estimate.p_loss_group
        found.update({f"{r.layout.label} {name}": value for name, value in figures.items()})
    return found


def assert_no_lower(
    before: dict[str, float], after: dict[str, float], kinds: Iterable[str]
) -> None:
    """Each figure of ``kinds`` (for every layout) is no lower ``after`` than ``before``."""
    wanted = set(kinds)
    checked = 0
    for name, value in before.items():
        if name.rsplit(" ", 1)[1] in wanted:
            checked += 1
            assert after[name] >= value * (1 - SLACK), (name, value, after[name])
    assert checked >= len(wanted)


def scenario_text(
    arr: float, scrub: float, delay: float, years: float, data_disks: int, extra: str = ""
) -> str:
    """A spec-sheet drive (its rebuild derived), RAID 5, RAID 6 and a dRAID pool."""
    return (
        "name: directions\n"
        f"mission_years: {years:.6g}\n"
        "drive:\n"
        f"  arr: {arr:.6g}\n"
        "  capacity_tb: 8\n"
        "  sustained_mb_per_s: 200\n"
        "  unrecoverable_read_errors_per_bit: 1e-15\n"
        "restore:\n"
        "  load: busy\n"
        f"  scrub_hours: {scrub:.6g}\n"
        f"  replace_delay_hours: {delay:.6g}\n"
        f"aggregate:\n  data_disks: {data_disks}\n"
        "layouts:\n"
        "  - raid: raid5\n    group_size: 6\n"
        "  - raid: raid6\n    group_size: 8\n"
        "  - raid: draid2\n    data: 4\n    children: 14\n    spares: 1\n" + extra
    )


bases = st.builds(
    scenario_text,
    arr=st.floats(0.002, 0.1),
    scrub=st.floats(24.0, 2000.0),
    delay=st.sampled_from([0.0, 24.0, 168.0]),
    years=st.floats(0.5, 10.0),
    data_disks=st.integers(1, 200),
)


@SETTINGS
@given(text=bases, factor=st.floats(1.05, 10.0))
def test_a_higher_arr_never_lowers_any_figure(text: str, factor: float) -> None:
    """Every figure, the sector-loss ones and the spec-sheet method's included; also through
    a pool's wait when its spares are taken (Erlang's B rises with the failure rate)."""
    base = load_scenario_text(text)
    assert base.drive.arr is not None
    worse = load_scenario_text(text, overrides=[f"drive.arr={min(base.drive.arr * factor, 0.9)!r}"])
    kinds = (*RISK, *GOING_ON, *SECTORS, *METHODS, "spec_sheet", "nomdl", *INVERSE_MTTDL)
    assert_no_lower(shown(base), shown(worse), kinds)


CORRELATION = "correlation:\n  degraded_multiplier: {m:.6g}\n  shocks_per_year: {s:.6g}\n" \
    "  shock_drive_probability: {q:.6g}\n"  # fmt: skip
correlations = st.one_of(
    st.just(""),
    st.builds(
        CORRELATION.format, m=st.floats(1.0, 8.0), s=st.floats(0.0, 2.0), q=st.floats(0.0, 0.5)
    ),
)
"""Independent drives, or a ``correlation:`` section (its every field drawn)."""


@SETTINGS
@given(text=bases, correlation=correlations)
def test_a_mean_count_is_at_least_the_probability_of_one(text: str, correlation: str) -> None:
    """E[whole-group losses] >= P(group lost) and E[sector-loss events] >= P(sectors lost),
    a group's and the aggregate's: the drives down follow the same chain in all four,
    correlated drives included (a shock may fail the defect's holder: docs/correlated.md)."""
    figures = shown(load_scenario_text(text + correlation))
    for label in {name.rsplit(" ", 1)[0] for name in figures}:
        for mean, p in (
            ("group_losses_group", "p_group_lost"),
            ("events_group", "p_sectors_lost"),
            ("group_losses", "p_group_lost_aggregate"),
            ("events", "p_sectors_lost_aggregate"),
        ):
            assert figures[f"{label} {mean}"] >= figures[f"{label} {p}"] * (1 - SLACK), (label, p)


def test_the_shipped_correlated_scenario_counts_at_least_its_probabilities() -> None:
    """scenarios/correlated-20tb.yaml: E[whole-group losses] >= P(group lost) in every layout
    (every one of its five fell below, by 1.7 % to 4.7 %, while shocks spared the holder)."""
    path = next(p for p in SINGLE_AGGREGATE if p.name == "correlated-20tb.yaml")
    figures = shown(load_scenario(path))
    labels = {name.rsplit(" ", 1)[0] for name in figures}
    assert len(labels) == 5
    for label in labels:
        for mean, p in (("group_losses_group", "p_group_lost"), ("events_group", "p_sectors_lost")):
            assert figures[f"{label} {mean}"] >= figures[f"{label} {p}"], (label, p)


LONGER_REBUILDS: dict[str, Callable[[Scenario, float], str]] = {
    "slower drive": lambda s, f: f"drive.sustained_mb_per_s={200 / f!r}",
    "heavier load": lambda s, f: f"restore.load_factor={s.restore.rebuild_load_factor * f!r}",
    "longer wait": lambda s, f: f"restore.replace_delay_hours={s.restore.delay_hours + 24 * f!r}",
    "larger drive": lambda s, f: f"drive.capacity_tb={8 * f!r}",
}


@SETTINGS
@given(text=bases, how=st.sampled_from(sorted(LONGER_REBUILDS)), factor=st.floats(1.05, 10.0))
def test_a_longer_rebuild_never_lowers_the_risk(text: str, how: str, factor: float) -> None:
    """The rebuild model's every input; not the sector-loss figures nor the spec-sheet
    method, which may fall a little (module docstring)."""
    base = load_scenario_text(text)
    worse = load_scenario_text(text, overrides=[LONGER_REBUILDS[how](base, factor)])
    assert all(
        w.rebuild_hours >= b.rebuild_hours
        for b, w in zip(
            compare_data(base).comparison.results,
            compare_data(worse).comparison.results,
            strict=True,
        )
    )
    assert_no_lower(shown(base), shown(worse), (*RISK, *GOING_ON, *METHODS, *INVERSE_MTTDL))


@SETTINGS
@given(text=bases, more=st.integers(1, 500))
def test_more_data_drives_never_lower_an_aggregates_figure(text: str, more: int) -> None:
    """More groups in the aggregate; a group's own figures do not change (a drive whose
    defect rate does not depend on the aggregate: no workload spreads its reads). The
    NOMDL is one group's, except a ZFS pool's, which each vdev's loss takes whole: it is
    the aggregate's, never lower with more groups."""
    base = load_scenario_text(text)
    n = base.aggregate.data_disks
    before = shown(base)
    after = shown(load_scenario_text(text, overrides=[f"aggregate.data_disks={n + more}"]))
    aggregate = ("p_loss_aggregate", "p_group_lost_aggregate", "p_sectors_lost_aggregate")
    assert_no_lower(before, after, (*aggregate, "events", "group_losses", "independent", "nomdl"))
    for name, value in before.items():
        if not name.endswith(("aggregate", " events", " group_losses", " nomdl")):
            assert after[name] == pytest.approx(value, rel=SLACK), name


LESS_PARITY = {
    # RAID 6 of 8 as single parity of 8; the pool as draid1 of the same drives
    "raid6 8": ["layouts[1].raid=null", "layouts[1].parity=1", "layouts[1].label=raid6 8"],
    "draid2:4d:14c:1s": ["layouts[2].raid=draid1", "layouts[2].label=draid2:4d:14c:1s"],
}


@SETTINGS
@given(text=bases, label=st.sampled_from(sorted(LESS_PARITY)))
def test_less_parity_at_the_same_width_never_lowers_the_risk(text: str, label: str) -> None:
    """The other layouts do not move. The degraded hours may fall: a lost group is restored
    at once (docs/availability.md), so they are left out."""
    base, less = (
        shown(load_scenario_text(text)),
        shown(load_scenario_text(text, overrides=LESS_PARITY[label])),
    )
    kinds = {"p_loss_group", "p_loss_aggregate", "p_group_lost", "p_group_lost_aggregate",
             "group_losses_group", "group_losses", "critical_hours", "1/mttdl_hours"}  # fmt: skip
    mine = {name: value for name, value in base.items() if name.startswith(f"{label} ")}
    assert_no_lower(mine, less, kinds)
    for name, value in base.items():
        if name not in mine:
            assert less[name] == pytest.approx(value, rel=SLACK), name


@SETTINGS
@given(text=bases, spares=st.integers(1, 3), fewer=st.integers(1, 3))
def test_fewer_distributed_spares_never_lower_a_pools_risk(
    text: str, spares: int, fewer: int
) -> None:
    """A pool with fewer spares waits for a replacement more often (every spare taken), or
    always (none): one pool's figures never fall. Its aggregate may hold fewer pools (each
    holds more data), so the aggregate's figures are not claimed."""
    pool = "layouts[2]"
    label = [f"{pool}.label=pool"]
    base = load_scenario_text(text, overrides=[f"{pool}.spares={spares}", *label])
    worse = load_scenario_text(text, overrides=[f"{pool}.spares={max(spares - fewer, 0)}", *label])
    kinds = ("p_loss_group", "p_group_lost", "group_losses_group", "critical_hours",
             "degraded_hours", "1/mttdl_hours")  # fmt: skip
    before = {k: v for k, v in shown(base).items() if k.startswith("pool ")}
    assert_no_lower(before, shown(worse), kinds)


@SETTINGS
@given(
    text=bases,
    m=st.floats(1.0, 8.0),
    shocks=st.floats(0.0, 2.0),
    q=st.floats(0.0, 0.5),
    factor=st.floats(1.05, 10.0),
)
def test_more_defects_never_lower_the_risk_of_correlated_drives(
    text: str, m: float, shocks: float, q: float, factor: float
) -> None:
    """A higher spec-sheet error rate (more latent defects) under correlated failures:
    P(loss), P(group lost), the sector-loss figures, the MTTDL and the independent twin's
    P(loss) of every layout, the pool's included; the expected whole-group losses and the
    hours do not move at all (a shock may fail the defect's holder as any drive, so the
    drives down do not depend on the defects: docs/correlated.md)."""
    text += CORRELATION.format(m=m, s=shocks, q=q)
    base = load_scenario_text(text)
    worse = load_scenario_text(
        text, overrides=[f"drive.unrecoverable_read_errors_per_bit={1e-15 * factor!r}"]
    )
    assert worse.latent_defects_per_hour > base.latent_defects_per_hour
    before, after = shown(base), shown(worse)
    kinds = (*RISK, *SECTORS, "independent", "mttdl", "1/mttdl_hours")
    assert_no_lower(before, after, kinds)
    for name, value in before.items():
        if name.endswith(GOING_ON):
            assert after[name] == pytest.approx(value, rel=SLACK), name


@SETTINGS
@given(text=bases, longer=st.floats(1.05, 4.0))
def test_a_longer_mission_never_lowers_a_probability_or_a_count(text: str, longer: float) -> None:
    """Every probability and expected count; the MTTDL does not depend on the mission."""
    base = load_scenario_text(text)
    years = min(base.mission_years * longer, 100.0)
    worse = load_scenario_text(text, overrides=[f"mission_years={years!r}"])
    before, after = shown(base), shown(worse)
    kinds = (*RISK, *SECTORS, "group_losses_group", "group_losses", *METHODS, "spec_sheet")
    assert_no_lower(before, after, kinds)
    for name in before:
        if name.endswith(INVERSE_MTTDL):
            assert after[name] == pytest.approx(before[name], rel=SLACK), name


SHIPPED_PLAN = next(path for path in PLANS if path.name == "three-tier-plan.yaml")


@pytest.mark.parametrize("tier", [0, 1, 2])
def test_a_riskier_tier_raises_the_plans_risk_and_no_other_tier(tier: int) -> None:
    """A tier's ARR x1.5: its baseline's P(loss) and P(any tier loses data) rise; the other
    tiers' rows do not move."""
    plan = load_plan(SHIPPED_PLAN)
    arr = plan.tiers[tier].scenario.drive.arr
    assert arr is not None
    before = plan_comparison(plan).totals
    after = plan_comparison(load_plan(SHIPPED_PLAN, [f"tiers[{tier}].drive.arr={arr * 1.5!r}"]))
    moved = after.totals
    assert before.total.p_loss is not None
    assert moved.total.p_loss is not None
    assert moved.total.p_loss > before.total.p_loss
    for i, (old, new) in enumerate(zip(before.tiers, moved.tiers, strict=True)):
        assert old.p_loss is not None
        assert new.p_loss is not None
        if i == tier:
            assert new.p_loss > old.p_loss
        else:
            assert new == old
