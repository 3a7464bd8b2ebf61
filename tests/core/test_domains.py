"""Failure domains: the enclosure chain against independent references (docs/domains.md).

* every figure (P(loss), P(group lost), P(sectors lost), the expected sector-loss events,
  P(unavailable), the MTTDL) against the chain tests/reference.py writes from the docs'
  rules in mpmath, to 1e-9: uneven placements, a pool's sigma, parallel rebuilds;
* against every drive and enclosure enumerated on its own (tests/reference.py, float64
  uniformization): exact with one drive of the group per enclosure (1e-9), and within 1e-4
  with larger enclosures, where the chain takes the failed drives to be spread alike;
* the compiled kernel and the NumPy path agree; neutral settings give today's figures.
"""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np
import pytest

from planner.core.markov import expm_compiled
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.domain_figures import enclosure_chain_figures, group_loss_figures
from planner.core.markov.enclosures import Enclosures, Placement, placement_of
from planner.core.markov.rates import Rates
from planner.core.markov.transient import loss_figures
from tests import reference

TOLERANCE = 1e-9
FIGURES = (
    "p_loss",
    "p_group_lost",
    "p_sectors_lost",
    "expected_sector_loss_events",
    "p_unavailable",
    "mttdl_hours",
)

ODD = Rates(
    op_failures_per_hour=2.3e-5,
    latent_defects_per_hour=3.1e-5,
    rebuild_hours=19.0,
    scrub_hours=97.0,
)
"""Odd rates (high, so that every path carries weight), no two alike."""


def _with(rates: Rates, failures_per_hour: float, repair_hours: float, **rule: int) -> Rates:
    return dataclasses.replace(
        rates, enclosures=Enclosures(failures_per_hour, repair_hours, **rule)
    )


def _rates_of(rates: Rates) -> dict[str, float]:
    """The reference's rate names (per hour)."""
    assert rates.enclosures is not None
    return {
        "lop": rates.op_failures_per_hour,
        "lld": rates.latent_defects_per_hour,
        "mu": 1 / rates.rebuild_hours,
        "scrub": 1 / rates.scrub_hours,
        "lam_e": rates.enclosures.failures_per_hour,
        "mu_e": 1 / rates.enclosures.repair_hours,
        "sigma": rates.defect_stripe_share,
    }


POOL = dataclasses.replace(ODD, defect_stripe_share=0.37, rebuild_streams=None)
CASES = [
    # k = 1 in mpmath: a large and a small enclosure (2 + 1), one drive in each, a pool
    (1, 3, _with(ODD, 4.1e-5, 31.0, members_per_enclosure=2), 20_000.0, True),
    (1, 4, _with(ODD, 2.9e-5, 17.0, spread=4), 43_800.0, True),
    (1, 5, _with(POOL, 6.1e-5, 23.0, spread=3), 8_760.0, True),
    # k = 2 (20-odd states) by SciPy in float64: 2 x 2 + 1 x 1, a pool with every rebuild at once
    (2, 5, _with(ODD, 4.1e-5, 31.0, members_per_enclosure=2), 20_000.0, False),
    (2, 5, _with(POOL, 6.1e-5, 23.0, spread=3), 8_760.0, False),
]


@pytest.mark.parametrize(("parity", "drives", "rates", "hours", "exact"), CASES)
def test_every_figure_matches_the_reference_chain(
    parity: int, drives: int, rates: Rates, hours: float, exact: bool
) -> None:
    assert rates.enclosures is not None
    p = rates.enclosures.placement(drives)
    figures = group_loss_figures(parity, drives, rates, hours, mttdl=True)
    with mpmath.workdps(30):
        expected = reference.enclosure_figures(
            parity,
            (p.large, p.large_size, p.small, p.small_size),
            _rates_of(rates),
            hours,
            rates.rebuild_streams,
            exact,
        )
    for name in FIGURES:
        value = getattr(figures, name)
        assert reference.relative_error(value, expected[name]) < TOLERANCE, name


def _enclosures(placement: Placement) -> list[tuple[int, ...]]:
    """The drives of each enclosure, numbered."""
    sizes = [placement.large_size] * placement.large + [placement.small_size] * placement.small
    starts = np.cumsum([0, *sizes])
    return [tuple(range(int(a), int(a) + size)) for a, size in zip(starts, sizes, strict=False)]


ENUMERATED = [
    (1, 4, 1, 1e-9),  # one drive per enclosure: the chain is exact
    (2, 4, 1, 1e-9),
    (2, 5, 2, 1e-4),  # two per enclosure: failed drives taken as spread alike
]


@pytest.mark.parametrize(("parity", "drives", "members", "tolerance"), ENUMERATED)
def test_the_chain_against_every_drive_and_enclosure_enumerated(
    parity: int, drives: int, members: int, tolerance: float
) -> None:
    rates = _with(
        dataclasses.replace(ODD, rebuild_hours=47.0), 3.3e-5, 29.0, members_per_enclosure=members
    )
    hours = 8_760.0
    figures = group_loss_figures(parity, drives, rates, hours)
    assert rates.enclosures is not None
    members_of = _enclosures(rates.enclosures.placement(drives))
    expected = reference.enclosure_enumeration(parity, members_of, _rates_of(rates), hours)
    for name, value in expected.items():
        assert abs(getattr(figures, name) / value - 1) < tolerance, name


def test_the_compiled_kernel_and_the_numpy_path_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    count = 40
    inputs = ChainInputs.of(
        12,
        rng.uniform(1e-7, 3e-5, count),
        rng.uniform(0, 2e-4, count),
        rng.uniform(5, 60, count),
        rng.uniform(24, 400, count),
        rng.uniform(100, 90_000, count),
        defect_stripe_share=rng.uniform(0.1, 1.0, count),
    )
    lam, hours = rng.uniform(1e-7, 1e-4, count), rng.uniform(2, 72, count)
    for placement in (placement_of(12, 1), placement_of(12, 2), placement_of(12, spread=5)):
        compiled = enclosure_chain_figures(2, placement, inputs, lam, hours)
        with monkeypatch.context() as patch:
            patch.setattr(expm_compiled, "KERNEL", None)
            numpy_path = enclosure_chain_figures(2, placement, inputs, lam, hours)
        for name in FIGURES[:-1]:
            a, b = getattr(compiled, name), getattr(numpy_path, name)
            assert np.all(np.abs(a - b) <= 1e-12 * np.abs(b) + 1e-300), (placement, name)


def test_neutral_settings_give_todays_figures() -> None:
    hours = 43_800.0
    today = loss_figures(2, 12, ODD, hours, mttdl=True)
    assert group_loss_figures(2, 12, ODD, hours, mttdl=True) == today
    still = group_loss_figures(2, 12, _with(ODD, 0.0, 24.0, members_per_enclosure=2), hours)
    assert dataclasses.replace(still, p_unavailable=None) == dataclasses.replace(
        today, mttdl_hours=None
    )
    assert still.p_unavailable == today.p_loss
    # every enclosure holds more than k drives: each outage stops the group, none loses data
    big = group_loss_figures(
        2, 12, _with(ODD, 5e-5, 24.0, members_per_enclosure=3), hours, mttdl=True
    )
    for name in FIGURES:
        if name != "p_unavailable":
            assert getattr(big, name) == pytest.approx(getattr(today, name), rel=1e-12), name
    # four enclosures, each failing at 5e-5 an hour: the first outage by T
    assert big.p_unavailable == pytest.approx(-np.expm1(-4 * 5e-5 * hours), rel=1e-6)


def test_placements_and_their_limits() -> None:
    assert placement_of(12, 4) == Placement(3, 4)
    assert placement_of(10, 4) == Placement(2, 4, 1, 2)
    assert placement_of(12, spread=5) == Placement(2, 3, 3, 2)
    assert placement_of(12, 20) == Placement(1, 12)  # wider than the group: one enclosure
    assert placement_of(3, spread=9) == Placement(3, 1)
    assert placement_of(12, spread=5).text() == "2 x 3 + 3 x 2"
    for bad in ({}, {"members_per_enclosure": 2, "spread": 3}, {"members_per_enclosure": 0}):
        with pytest.raises(ValueError, match=r"members_per_enclosure|spread"):
            placement_of(12, **bad)
    with pytest.raises(ValueError, match="repair_hours"):
        Enclosures(1e-5, 0.0, members_per_enclosure=2)
    with pytest.raises(ValueError, match="correlated"):
        dataclasses.replace(
            ODD, degraded_multiplier=2.0, enclosures=Enclosures(1e-5, 24.0, spread=2)
        )
