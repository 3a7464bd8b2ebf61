"""Hot spares shorten the wait for a replacement in every path a scenario takes.

A buyer's review: ``planner evaluate scenarios/today-20tb-nl-sas.yaml --set
restore.replace_delay_hours=72 --set aggregate.hot_spares=4`` gave RAID 6 the P(loss) it
has without spares (0.256 %): the spares were bought and never used. With s spares shared
by the aggregate's D drives a failure waits the delay only when it finds every spare taken,
Erlang's B(s, A) with A = D lambda_op delay (:mod:`planner.core.arrays.hot_spares`), so a
group restores in T + B x delay on average. The figures are checked against the chain
rebuilt in mpmath with that restore time, and evaluate, size, recommend, sweep,
sensitivity, compare-methods and simulate against one another (the TUI: tests/tui).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.analysis.compare import analytic_by_label, compare_data, comparison
from planner.analysis.recommend import recommendation
from planner.analysis.sensitivity import sensitivity_report
from planner.analysis.simulation import SimulationRequest
from planner.analysis.sizing_report import sized_results
from planner.analysis.sweep import sweep_report
from planner.cli import app
from planner.scenario import load_scenario
from tests import reference

ROOT = Path(__file__).resolve().parents[2]
TODAY = ROOT / "scenarios" / "today-20tb-nl-sas.yaml"
BRIEF = ["restore.replace_delay_hours=72", "aggregate.hot_spares=4"]

WORKLOAD = """\
name: spares and a wait
mission_years: 5
drive:
  arr: 8%
  latent_defects_per_hour: 1e-5
  capacity_tb: 4
  class: 7.2k
  sustained_mb_per_s: 200
  price: 100
restore:
  replace_delay_hours: 168
  scrub_hours: 168
aggregate:
  data_disks: 24
  hot_spares: {spares}
layouts:
  - raid: raid6
    group_size: 8
  - raid: raid5
    group_size: 5
workload:
  iops: 500
  read_fraction: 0.7
  capacity_tb: 50
target:
  max_p_loss: 50%
search:
  parity: [1, 2]
  group_sizes: [5, 8]
"""


def _erlang_b(spares: int, offered: float) -> float:
    terms = [offered**k / math.factorial(k) for k in range(spares + 1)]
    return terms[-1] / sum(terms)


def _workload(tmp_path: Path, spares: int) -> Path:
    path = tmp_path / f"wait-{spares}.yaml"
    path.write_text(WORKLOAD.format(spares=spares), encoding="utf-8")
    return path


def test_the_reviews_case_lowers_raid6_to_the_chain_with_the_shorter_wait() -> None:
    # failed first: 0.256 % with or without the four spares
    spared = load_scenario(TODAY, BRIEF)
    unspared = load_scenario(TODAY, BRIEF[:1])
    rates = spared.rates()
    rebuild = rates.rebuild_hours - 72.0  # 20 TB at 285 MB/s under load, 77.2 h
    by_label = {r.layout.label: r for r in comparison(spared).results}
    before = {r.layout.label: r for r in comparison(unspared).results}
    raid6 = by_label["RAID 6 (10+2)"]
    drives = raid6.shape.groups * 12  # 10 groups of 12 share the spares
    taken = _erlang_b(4, drives * rates.op_failures_per_hour * 72.0)
    expected = reference.p_loss(
        2, 12, rates.op_failures_per_hour, rates.latent_defects_per_hour,
        rebuild + taken * 72.0, rates.scrub_hours, spared.mission_hours,
    )  # fmt: skip
    assert reference.relative_error(raid6.p_loss_group, expected) < 1e-9
    assert raid6.rebuild_hours == pytest.approx(rebuild, rel=1e-6)
    assert before["RAID 6 (10+2)"].p_loss_aggregate == pytest.approx(0.00256, rel=0.01)
    assert raid6.p_loss_aggregate < 0.5 * before["RAID 6 (10+2)"].p_loss_aggregate
    # the pool keeps its distributed spares' model: the dedicated ones change nothing
    pool = "draid2:8d:48c:2s"
    assert by_label[pool].p_loss_aggregate == before[pool].p_loss_aggregate
    # without the wait the spares have nothing to shorten: the figures are today's
    plain = comparison(load_scenario(TODAY))
    four = comparison(load_scenario(TODAY, BRIEF[1:]))
    assert [r.p_loss_group for r in four.results] == [r.p_loss_group for r in plain.results]


def test_the_note_says_the_spares_shorten_the_wait_with_b() -> None:
    scenario = load_scenario(TODAY, BRIEF)
    data = compare_data(scenario, BRIEF)
    text = " ".join(data.notes)
    lop = scenario.rates().op_failures_per_hour
    taken = {
        r.layout.label: _erlang_b(4, r.shape.groups * r.layout.group_size * lop * 72.0)
        for r in data.comparison.results
        if r.layout.declustered is None
    }
    assert "no change to any probability" not in text
    assert "rebuilt onto a free spare at once" in text
    assert "B(4, A)" in text
    for b in (min(taken.values()), max(taken.values())):
        assert f"{b:.2g}" in text
    assert "draid2:8d:48c:2s keeps its own distributed spares" in text
    result = CliRunner().invoke(app, ["evaluate", str(TODAY), "-f", "csv", *_set(BRIEF)])
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert "4 dedicated hot spares in every drive count (a failure waits the 72 h" in first


def _set(overrides: list[str]) -> list[str]:
    return [word for o in overrides for word in ("--set", o)]


def test_evaluate_size_recommend_sweep_and_sensitivity_agree(tmp_path: Path) -> None:
    path = _workload(tmp_path, 1)
    scenario = load_scenario(path)
    sized = {r.label: r for r in sized_results(scenario) or ()}
    raid6 = sized["raid6 8"]
    # evaluate on the sized aggregate's data drives: the same groups share the spare
    evaluated = comparison(load_scenario(path, [f"aggregate.data_disks={raid6.data_disks}"]))
    result = next(r for r in evaluated.results if r.layout.label == "raid6 8")
    assert result.shape.groups == raid6.groups
    assert raid6.p_loss_aggregate == pytest.approx(result.p_loss_aggregate, rel=1e-12)
    assert raid6.rebuild_hours == pytest.approx(result.rebuild_hours, rel=1e-12)
    # the wait is shortened: below the figure without the spare
    none = {r.label: r for r in sized_results(load_scenario(_workload(tmp_path, 0))) or ()}
    assert raid6.p_loss_aggregate < 0.9 * none["raid6 8"].p_loss_aggregate
    # recommend's candidate of the same layout and groups
    found = recommendation(scenario)
    same = [
        c
        for c in found.meeting
        if (c.layout.parity, c.layout.group_size, c.groups) == (2, 8, raid6.groups)
    ]
    assert same
    assert same[0].p_loss_aggregate == pytest.approx(raid6.p_loss_aggregate, rel=1e-9)
    assert same[0].rebuild_hours == pytest.approx(raid6.rebuild_hours, rel=1e-12)
    # the sweep of the scenario's own layouts at aggregate.data_disks is evaluate's
    table = sweep_report(scenario, [], [], True, None, True).table
    for i, r in enumerate(comparison(scenario).results):
        assert table.p_loss_aggregate[i] == pytest.approx(r.p_loss_aggregate, rel=1e-9)
    # the tornado's base is the sized aggregate's, its rebuild bar starts at its rebuild
    tornado = sensitivity_report(scenario, "raid6 8")
    assert tornado.sensitivity.p_loss_aggregate == raid6.p_loss_aggregate
    assert tornado.sensitivity.point.rates.rebuild_hours == pytest.approx(
        raid6.rebuild_hours, rel=1e-12
    )


def test_methods_and_the_simulator_take_the_same_restore(tmp_path: Path) -> None:
    scenario = load_scenario(_workload(tmp_path, 1), ["workload.capacity_tb=5"])
    results = {r.layout.label: r for r in comparison(scenario).results}
    methods = analytic_by_label(scenario)
    for label, result in results.items():
        assert methods[label].p_markov == pytest.approx(result.p_loss_group, rel=1e-9)
        request = SimulationRequest.of(scenario, result.layout)
        assert request.p_loss_markov == pytest.approx(result.p_loss_group, rel=1e-9)
        laws = result.layout.chain_distributions(request.distributions, request.groups)
        assert laws.restoration.mean_hours == pytest.approx(result.rebuild_hours, rel=1e-12)


def test_cli_json_of_every_command_runs_with_spares_and_a_wait(tmp_path: Path) -> None:
    path = str(_workload(tmp_path, 2))
    runner = CliRunner()
    for command in ("evaluate", "size", "recommend", "sweep", "sensitivity"):
        result = runner.invoke(app, [command, path, "-f", "json"])
        assert result.exit_code == 0, (command, result.stderr)
        json.loads(result.stdout)
    result = runner.invoke(app, ["report", path, "-o", "-"])
    assert result.exit_code == 0, result.stderr
    assert "rebuilt onto a free spare at once" in " ".join(result.stdout.split())


def test_the_sweeps_spare_note_names_no_rebuild_column_it_lacks() -> None:
    """A newcomer's review: the sweep's note sent the reader to a Rebuild column the sweep
    does not have; evaluate's table has one."""
    scenario = load_scenario(TODAY, BRIEF)
    report = sweep_report(scenario, [2], [12], True, None, False)
    [note] = [n for n in report.section_notes if "Erlang's loss formula" in n]
    assert "plus B x 72 h on average, not the whole wait" in note
    assert "Rebuild column" not in note
    [table_note] = [n for n in compare_data(scenario).notes if "Erlang's loss formula" in n]
    assert "on average (the Rebuild column)" in table_note
