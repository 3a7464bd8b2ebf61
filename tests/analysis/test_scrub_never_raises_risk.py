"""Issue 20: scrubbing more often never raises a P(loss) planner shows.

A scrub finds latent defects and repairs them (NS3574, "Data scrubbing"); it does not make
them. When the derived defect rate counted the scrub's own reads, P(loss) of a spec-sheet
drive rose as the scrub interval shrank (20 TB NL-SAS, RAID 6 of 12: 1344 h 0.066 %, 24 h
0.094 %). These properties check every figure evaluate and size show, and every method of
``--methods``, on every shipped scenario and on random spec-sheet drives: with a shorter
``restore.scrub_hours`` none is higher.

P(group lost) is left out: while it counts only paths whose first loss is k + 1 failures,
fewer sector losses leave more paths to end that way, so it may rise with more scrubbing;
issue 20 redefines it (k + 1 drives down at once, defects written off), which no scrub
changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shipped import SINGLE_AGGREGATE

from planner.analysis.compare import compare_data
from planner.analysis.recommend import recommendation
from planner.analysis.sizing_report import sized_results
from planner.analysis.sweep import sweep_report
from planner.core.design.recommend import Target
from planner.report.recommend_summary import summary
from planner.scenario import Scenario, load_scenario, load_scenario_text
from planner.scenario.distributions import distribution_set

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = SINGLE_AGGREGATE  # a plan's tiers: the plan tests (tests/shipped.py)
TOLERANCE = 1e-9
"""Relative slack for two exact evaluations that should be equal when the scrub is idle."""

scrub_hours = st.floats(min_value=0.0, max_value=4.5).map(lambda x: float(f"{10**x:.6g}"))


def shown_figures(scenario: Scenario) -> dict[str, float]:
    """Every P(loss) the comparison, the sizing and the methods show, by name."""
    data = compare_data(scenario, methods=True)
    figures: dict[str, float] = {}
    for r in data.comparison.results:
        label = r.layout.label
        figures[f"{label} p_loss_group"] = r.p_loss_group
        figures[f"{label} p_loss_aggregate"] = r.p_loss_aggregate
        figures[f"{label} p_sectors_lost"] = r.p_sectors_lost
        figures[f"{label} p_sectors_lost_aggregate"] = r.p_sectors_lost_aggregate
    for label, methods in (data.methods or {}).items():
        for estimate in methods.estimates:  # markov, mttdl, mttdl_approx, no_latent, spec_sheet
            figures[f"{label} {estimate.key}"] = estimate.p_loss_group
    for sized in sized_results(scenario) or ():
        figures[f"{sized.label} sized p_loss_group"] = sized.p_loss_group
        figures[f"{sized.label} sized p_loss_aggregate"] = sized.p_loss_aggregate
    return figures


def assert_no_higher(shorter: dict[str, float], longer: dict[str, float]) -> None:
    assert shorter.keys() == longer.keys()
    for name, p in shorter.items():
        assert p <= longer[name] * (1 + TOLERANCE) + 1e-300, (name, p, longer[name])


def simulated_defect_rate(scenario: Scenario) -> float:
    """The latent-defect rate ``planner simulate`` runs the scenario with."""
    distributions, _ = distribution_set(scenario.distributions, scenario.rates())
    return distributions.latent_defects_per_hour


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=scrub_hours, b=scrub_hours)
def test_a_shorter_scrub_never_raises_a_shipped_scenarios_risk(
    path: Path, a: float, b: float
) -> None:
    short, long = sorted((a, b))
    shorter = load_scenario(path, [f"restore.scrub_hours={short!r}"])
    longer = load_scenario(path, [f"restore.scrub_hours={long!r}"])
    assert_no_higher(shown_figures(shorter), shown_figures(longer))
    assert simulated_defect_rate(shorter) == simulated_defect_rate(longer)


LAYOUTS = st.one_of(
    st.integers(3, 16).map(lambda n: f"  - raid: raid5\n    group_size: {n}\n"),
    st.integers(4, 24).map(lambda n: f"  - raid: raid6\n    group_size: {n}\n"),
    st.integers(5, 24).map(lambda n: f"  - raid: raid-tp\n    group_size: {n}\n"),
    st.just("  - raid: raid10\n"),
    st.tuples(st.integers(1, 3), st.sampled_from([4, 8]), st.integers(24, 60)).map(
        lambda t: f"  - raid: draid{t[0]}\n    data: {t[1]}\n    children: {t[2]}\n    spares: 1\n"
    ),
)


@st.composite
def spec_sheet_scenarios(draw: st.DrawFn) -> str:
    """A random scenario whose drive is described as a spec sheet gives it."""
    arr = draw(st.floats(0.2, 8.0))
    capacity = draw(st.floats(0.5, 30.0))
    rate = draw(st.floats(80.0, 600.0))
    errors = 10 ** draw(st.floats(-17.0, -13.0))
    reads = draw(st.none() | st.floats(8.0, 11.0).map(lambda x: 10**x))
    load = draw(st.sampled_from(["idle", "busy"]))
    layouts = draw(st.lists(LAYOUTS, min_size=1, max_size=3))
    labels = "".join(f"{layout}    label: L{i}\n" for i, layout in enumerate(layouts))
    return (
        "name: random spec sheet\n"
        f"mission_years: {draw(st.floats(0.5, 10.0)):.6g}\n"
        "drive:\n"
        f"  arr: {arr:.6g}%\n"
        f"  capacity_tb: {capacity:.6g}\n"
        f"  sustained_mb_per_s: {rate:.6g}\n"
        f"  unrecoverable_read_errors_per_bit: {errors:.6g}\n"
        + ("" if reads is None else f"  bytes_read_per_hour: {reads:.6g}\n")
        + f"restore:\n  load: {load}\n  scrub_hours: 168\n"
        f"aggregate:\n  data_disks: {draw(st.integers(1, 200))}\n"
        "layouts:\n" + labels
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=spec_sheet_scenarios(), a=scrub_hours, b=scrub_hours)
def test_a_shorter_scrub_never_raises_a_spec_sheet_drives_risk(
    text: str, a: float, b: float
) -> None:
    short, long = sorted((a, b))
    shorter = load_scenario_text(text, overrides=[f"restore.scrub_hours={short!r}"])
    longer = load_scenario_text(text, overrides=[f"restore.scrub_hours={long!r}"])
    assert shorter.latent_defects_per_hour == longer.latent_defects_per_hour
    assert_no_higher(shown_figures(shorter), shown_figures(longer))
    assert simulated_defect_rate(shorter) == simulated_defect_rate(longer)


def test_a_scrub_faster_than_one_full_read_is_said_to_be_optimistic() -> None:
    """A 1 h scrub of 20 TB drives read at 285 MB/s (19.5 h for one pass) is accepted, but
    the notes the CLI and the TUI show under the table say no scrub finishes that often.

    It once passed in silence, and made RAID 10 of 20 TB drives look safer than RAID 6.
    """
    today = load_scenario(ROOT / "scenarios" / "today-20tb-nl-sas.yaml", ["restore.load=idle"])
    one_pass_hours = 20e12 / 285e6 / 3600  # the drive's capacity over its sustained rate
    assert (today.drive.capacity_tb, today.drive.sustained_mb_per_s) == (20, 285)
    for scrub, said in ((1.0, True), (19.0, True), (20.0, False), (168.0, False)):
        scenario = today.model_copy(
            update={"restore": today.restore.model_copy(update={"scrub_hours": scrub})}
        )
        notes = [n for n in compare_data(scenario).notes if n.startswith("Scrub every")]
        assert bool(notes) == (scrub < one_pass_hours), (scrub, notes)
        if said:
            assert f"{one_pass_hours:.3g} h for 20 TB at 285 MB/s" in notes[0]
            assert "optimistic" in notes[0]
        # the group-size sweep of the same scenario says it too (it did not)
        swept = sweep_report(scenario, [2], [8, 12], False, None, False, ())
        assert any(n.startswith("Scrub every") for n in swept.section_notes) == said
        # and recommend's summary, over a few layouts (it said nothing)
        own = scenario.core_layouts()  # the scenario's few layouts, not a whole search
        recommended = summary(recommendation(scenario, own, (), Target(max_p_loss=1e-4)))
        assert any(line.startswith("Scrub every") for line in recommended) == said


def test_a_scrub_faster_than_one_read_under_the_rebuilds_load_is_said_too() -> None:
    """The shipped 20 TB scenario's rebuilds run busy (x3.96): one read takes 77.2 h there.

    A daily scrub passed in silence (it is slower than one idle read, 19.5 h); it shares the
    drives with the same host I/O as the rebuild, so it is said, with both read times.
    """
    busy = 20e12 / 285e6 / 3600 * 3.96  # the idle read, slowed as the rebuild is
    for scrub, said in ((24.0, True), (77.0, True), (78.0, False), (168.0, False)):
        scenario = load_scenario(
            ROOT / "scenarios" / "today-20tb-nl-sas.yaml", [f"restore.scrub_hours={scrub}"]
        )
        notes = [n for n in compare_data(scenario).notes if n.startswith("Scrub every")]
        assert bool(notes) == (scrub < busy), (scrub, notes)
        if said:
            assert (
                f"under the rebuilds' load, {busy:.3g} h (19.5 h for 20 TB at 285 MB/s idle, "
                in notes[0]
            )
            assert "x3.96 for restore.load: busy)" in notes[0]
            assert "unless it runs in idle hours" in notes[0]
    factor = load_scenario(
        ROOT / "scenarios" / "today-20tb-nl-sas.yaml",
        ["restore.scrub_hours=24", "restore.load=null", "restore.load_factor=2"],
    )
    notes = [n for n in compare_data(factor).notes if n.startswith("Scrub every")]
    assert "39 h (19.5 h for 20 TB at 285 MB/s idle, x2 for restore.load_factor)" in notes[0]


@pytest.mark.parametrize("command", ["sensitivity", "simulate"])
def test_sensitivity_and_simulate_say_it_too(command: str) -> None:
    """A newcomer set ``scrub_hours: 12`` on 20 TB drives: evaluate, size, sweep and
    recommend said no scrub finishes that often; sensitivity and simulate said nothing."""
    from typer.testing import CliRunner

    from planner.cli import app

    scenario = str(ROOT / "scenarios" / "today-20tb-nl-sas.yaml")
    args = [command, scenario, "--set", "restore.scrub_hours=12", "-f", "markdown"]
    if command == "simulate":
        args += ["--trials", "2000", "--layout", "RAID 10"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "Scrub every 12 h (restore.scrub_hours) is shorter than one full read" in text
