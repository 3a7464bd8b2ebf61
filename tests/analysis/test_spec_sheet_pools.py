"""The spec-sheet method of ``planner compare-methods`` for a declustered pool (issue 20)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from planner.analysis.compare import analytic_by_label
from planner.core.markov.methods import p_loss_spec_sheet
from planner.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "today-20tb-nl-sas.yaml"


def test_a_pool_reads_only_its_critical_stripes_at_the_critical_rebuild() -> None:
    scenario = load_scenario(SCENARIO)
    pool = next(x for x in scenario.core_layouts() if x.declustered is not None)
    shown = analytic_by_label(scenario, [pool])[pool.label].p_spec_sheet
    # draid2:8d:48c:2s, 20 TB at 1e-15 per bit: the stripes holding both failed drives,
    # 8 x 46 / 10 x 90 / 2256 = 1.468 drives' worth, not 46 drives read whole (0.999)
    p_unreadable = -math.expm1(-(8 * 46 / 10 * 90 / 2256) * 20e12 * 8 * 1e-15)
    expected = p_loss_spec_sheet(
        2, 48, pool.chain_rates(scenario.rates()), scenario.mission_hours, p_unreadable
    )
    assert shown == pytest.approx(expected, rel=1e-12)
    wholesale = p_loss_spec_sheet(
        2, 48, pool.chain_rates(scenario.rates()), scenario.mission_hours, 0.999
    )
    assert shown < wholesale / 2
