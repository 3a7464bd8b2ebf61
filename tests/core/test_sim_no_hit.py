"""A run whose trials never reach a critical state gives no interval, not ``0%–0%``.

Newcomer review: ``planner simulate -n 20 -s 2`` printed ``0%–0% ⚠`` for RAID-DP 9 with the
note "the interval is a bound only", while the exact P(loss) is 2e-5. With every trial's
estimate 0, a weighted estimator's normal interval is 0 to 0, which bounds nothing; a plain
run's Clopper-Pearson interval does bound it: ``1 - 0.025^(1/n)`` with no loss in n trials.
"""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.core.markov.rates import PAPER_RATES
from planner.core.simulation.distributions import exponential_from_rates
from planner.core.simulation.simulate import GroupSimulation, simulate_group

ONE_HOUR = 1.0  # nine drives at the paper's rates: a failure in 20 trials w.p. ~4e-4


@pytest.mark.parametrize("method", ["conditional", "biased"])
def test_a_weighted_run_without_a_hit_has_no_interval(method: str) -> None:
    run = GroupSimulation(
        2, 9, exponential_from_rates(PAPER_RATES), ONE_HOUR, method=method, trials=20, seed=2
    )
    result = simulate_group(run)
    assert result.hits == 0
    assert result.p_loss_group == 0.0
    assert math.isnan(result.ci95_low)
    assert math.isnan(result.ci95_high)
    assert not result.reliable
    assert "no interval" in result.warning
    assert "--method plain" in result.warning


def test_a_plain_run_without_a_loss_keeps_its_clopper_pearson_bound() -> None:
    run = GroupSimulation(
        2, 9, exponential_from_rates(PAPER_RATES), ONE_HOUR, method="plain", trials=20, seed=2
    )
    result = simulate_group(run)
    assert result.hits == 0
    assert result.ci95_low == 0.0
    assert result.ci95_high == pytest.approx(1 - 0.025 ** (1 / 20), rel=1e-12)
    assert result.reliable


def test_the_exports_say_none_and_the_table_a_dash() -> None:
    """JSON null (no interval), the table's cell a dash with the warning mark and its note."""
    args = ["simulate", "-n", "20", "-s", "2", "--method", "conditional"]
    args += ["--set", "mission_years=0.001"]
    exported = CliRunner().invoke(app, [*args, "-f", "json"])
    assert exported.exit_code == 0, exported.output
    rows = json.loads(exported.output)["layouts"]
    empty = [row for row in rows if row["hits"] == 0]
    assert empty  # nine hours: most layouts see no critical state in 20 trials
    for row in empty:
        assert row["ci95_low"] is None
        assert row["ci95_high"] is None
        assert row["ci95_aggregate_high"] is None
        assert "no interval" in row["warning"]
    table = CliRunner().invoke(app, [*args, "-f", "markdown"])
    assert table.exit_code == 0, table.output
    assert "| — ⚠ |" in table.output
    assert "0%–0%" not in table.output
    assert "no interval can be given" in table.output
