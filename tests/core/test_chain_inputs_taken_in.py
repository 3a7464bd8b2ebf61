"""A chain refuses scenario rates its layout has not adapted (``Layout.chain_rates``).

Two scenario inputs mean nothing to a chain until a layout takes them in: hot spares with a
wait to shorten, and a workload's latent-defect rate per data drive, which a group's chain
takes as the mean over its drives (x (N - k) / N). A path that skipped ``chain_rates`` gave
every drive a data drive's rate: a mirror's risk twice what it is.
"""

from __future__ import annotations

import dataclasses

import pytest

from planner.core.arrays.layouts import Layout
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.rates import PAPER_RATES

HOURS = 43_800.0


def test_a_data_drives_rate_is_refused_until_a_layout_spreads_it() -> None:
    rates = dataclasses.replace(PAPER_RATES, defects_per_data_drive=True)
    with pytest.raises(ValueError, match="chain_rates"):
        ChainInputs.of_rates(2, rates, HOURS)
    with pytest.raises(ValueError, match="chain_rates"):
        ChainInputs.from_rates([2], [rates], HOURS)
    mirror = Layout("RAID 10", "raid10", 1, 2).chain_rates(rates)
    assert mirror.latent_defects_per_hour == PAPER_RATES.latent_defects_per_hour / 2
    assert not mirror.defects_per_data_drive
    ChainInputs.of_rates(2, mirror, HOURS)  # taken in: accepted


def test_hot_spares_with_a_wait_are_refused_until_a_layout_takes_them_in() -> None:
    rates = dataclasses.replace(PAPER_RATES, hot_spares=2, replace_delay_hours=6.0)
    with pytest.raises(ValueError, match="chain_rates"):
        ChainInputs.of_rates(8, rates, HOURS)
    ChainInputs.of_rates(8, Layout("RAID 6", "raid6", 2, 8).chain_rates(rates, 4), HOURS)


def test_the_simulator_refuses_them_too() -> None:
    from planner.core.simulation.distributions import exponential_from_rates
    from planner.core.simulation.simulate import GroupSimulation

    spread = dataclasses.replace(PAPER_RATES, defects_per_data_drive=True)
    with pytest.raises(ValueError, match="chain_distributions"):
        GroupSimulation(1, 2, exponential_from_rates(spread), HOURS, trials=10)
    mirror = Layout("RAID 10", "raid10", 1, 2).chain_distributions(exponential_from_rates(spread))
    assert mirror.latent_defects_per_hour == PAPER_RATES.latent_defects_per_hour / 2
    GroupSimulation(1, 2, mirror, HOURS, trials=10)  # taken in: accepted
    spares = dataclasses.replace(PAPER_RATES, hot_spares=2, replace_delay_hours=6.0)
    with pytest.raises(ValueError, match="chain_distributions"):
        GroupSimulation(2, 8, exponential_from_rates(spares), HOURS, trials=10)


def test_defects_off_stay_off_through_a_layout() -> None:
    """A re-check's finding: with a workload, ``simulate`` gave P(group lost) = P(loss).
    Its run with latent defects off (``without_latent_defects``) went through
    ``chain_distributions(groups)``, which took the workload's reads over the groups' data
    drives again and put the defects back."""
    from planner.core.markov.workload_reads import WorkloadReads
    from planner.core.simulation.distributions import exponential_from_rates

    reads = dataclasses.replace(
        PAPER_RATES, defects_per_data_drive=True, workload_reads=WorkloadReads(1e-2, 1e-4)
    )
    off = exponential_from_rates(reads).without_latent_defects()
    for layout in (Layout("RAID 10", "raid10", 1, 2), Layout("RAID 6", "raid6", 2, 12)):
        assert layout.chain_distributions(off, 3).latent_defects_per_hour == 0.0
