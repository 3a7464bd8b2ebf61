"""The aggregate a view of one layout shows has the table's chain, for pools too.

:meth:`CompareData.layout_aggregate` rebuilds a sized aggregate's chain from the
scenario's rates and the sized row's own latent-defect rate: that chain must give the
row's P(loss) and MTTDL, for a RAID group and for a dRAID pool (whose chain takes the
pool's rebuild and stripe share), with hot spares and a wait for a replacement; and a Monte
Carlo request of that aggregate sets the same P(loss) beside its estimate.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.analysis.compare import compare_data
from planner.analysis.simulation import SimulationRequest
from planner.core.markov.transient import mttdl_hours, p_loss_group
from planner.scenario import load_scenario, scenario_with_overrides

ROOT = Path(__file__).resolve().parents[2]
REL = 1e-12


@pytest.mark.parametrize("fixed", [False, True])
def test_each_layouts_aggregate_has_the_tables_chain(fixed: bool) -> None:
    scenario = scenario_with_overrides(
        load_scenario(ROOT / "scenarios" / "recommend-400tb.yaml"),
        ["restore.replace_delay_hours=48", "aggregate.hot_spares=2"],
    )
    data = compare_data(scenario)
    assert data.sizing is not None
    for layout in scenario.core_layouts():
        aggregate = data.layout_aggregate(scenario, layout.label, fixed=fixed)
        assert aggregate.sized is not fixed
        mission = scenario.mission_hours
        chain = aggregate.chain_rates
        size = layout.group_size
        assert p_loss_group(layout.parity, size, chain, mission) == pytest.approx(
            aggregate.p_loss_group, rel=REL
        )
        assert mttdl_hours(layout.parity, size, chain) == pytest.approx(
            aggregate.mttdl_hours, rel=1e-9
        )
        request = SimulationRequest.of(scenario, layout, aggregate)
        assert request.groups == aggregate.groups
        assert request.same_scenario
        assert request.p_loss_markov == pytest.approx(aggregate.p_loss_group, rel=REL)
    # the sized and fixed aggregates differ here: each check above has a figure to miss
    sized = data.layout_aggregate(scenario, "RAID 6 (10+2)")
    fixed_one = data.layout_aggregate(scenario, "RAID 6 (10+2)", fixed=True)
    assert sized.groups != fixed_one.groups
    assert sized.chain_rates.latent_defects_per_hour < fixed_one.chain_rates.latent_defects_per_hour
