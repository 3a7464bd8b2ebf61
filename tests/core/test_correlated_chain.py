"""Correlated failures in the exact chain: the degraded multiplier and binomial shocks.

Every figure of the correlated chain (P(loss), P(group lost), P(sectors lost), the expected
sector-loss events, the MTTDL) is checked against the chain tests/reference.py writes from
the issue's rules in 60-digit mpmath (:func:`reference.correlated_figures`), for k = 1 to 3,
with and without latent defects, one group at a time and in a stack; and neutral values
(m = 1, no shocks) give exactly the independent figures.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from planner.core.markov.chain import CommonCause, LossKind, build_chain
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.rates import Rates
from planner.core.markov.transient import loss_figures, mttdl_hours
from tests import reference

TOLERANCE = 1e-9
ZERO = 1e-40
"""Below this the reference's figure is 0 (no defects: no sector loss) up to its rounding."""

CORRELATED = Rates(
    op_failures_per_hour=4.3e-6,
    latent_defects_per_hour=1.7e-4,
    rebuild_hours=23.0,
    scrub_hours=151.0,
    degraded_multiplier=3.0,
    shocks_per_hour=0.7 / 8760.0,
    shock_drive_probability=0.06,
)
"""Odd rates, so that no multiplier or state can be swapped unnoticed."""

CASES = [
    (1, 5, CORRELATED, 43_800.0),
    (2, 9, CORRELATED, 43_800.0),
    (3, 12, CORRELATED, 43_800.0),
    (2, 12, dataclasses.replace(CORRELATED, degraded_multiplier=1.0), 43_800.0),  # shocks
    (2, 12, dataclasses.replace(CORRELATED, shocks_per_hour=0.0), 20_000.0),  # m alone
    (3, 14, dataclasses.replace(CORRELATED, rebuild_streams=None), 8_760.0),
    (2, 24, dataclasses.replace(CORRELATED, defect_stripe_share=0.11), 43_800.0),  # a pool
    (3, 10, dataclasses.replace(CORRELATED, shock_drive_probability=0.6), 500.0),  # big shocks
    (1, 2, dataclasses.replace(CORRELATED, shock_drive_probability=1e-5), 43_800.0),  # a mirror
]
NO_DEFECTS = [
    (k, n, dataclasses.replace(r, latent_defects_per_hour=0.0), t) for k, n, r, t in CASES[:3]
]
"""k = 1 to 3 without latent defects: no sector loss at all."""
FIGURES = ("p_loss", "p_group_lost", "p_sectors_lost", "expected_sector_loss_events")
GOING_ON = ("expected_group_losses", "degraded_hours_per_year", "critical_hours_per_year")
"""The going-on chain's other figures (checked against mpmath in test_availability.py)."""


def _reference(parity: int, drives: int, rates: Rates, hours: float) -> dict[str, object]:
    return reference.correlated_figures(
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
        hours,
        rates.degraded_multiplier,
        rates.shocks_per_hour,
        rates.shock_drive_probability,
        share=rates.defect_stripe_share,
        streams=rates.rebuild_streams,
    )


@pytest.mark.parametrize(("parity", "drives", "rates", "hours"), CASES + NO_DEFECTS)
def test_one_group_matches_the_mpmath_chain(
    parity: int, drives: int, rates: Rates, hours: float
) -> None:
    expected = _reference(parity, drives, rates, hours)
    figures = loss_figures(parity, drives, rates, hours, mttdl=True)
    for name in FIGURES:
        value = getattr(figures, name)
        if abs(expected[name]) < ZERO:
            assert value == 0.0, name
            continue
        assert reference.relative_error(value, expected[name]) < TOLERANCE, name
    assert reference.relative_error(mttdl_hours(parity, drives, rates), expected["mttdl_hours"]) < (
        TOLERANCE
    )


@pytest.mark.parametrize("parity", [1, 3])
def test_a_stack_matches_the_mpmath_chain(parity: int) -> None:
    """One stack of groups, each with its own correlation."""
    rates = [
        dataclasses.replace(CORRELATED, latent_defects_per_hour=0.0, degraded_multiplier=2.0),
        dataclasses.replace(CORRELATED, shock_drive_probability=0.3, shocks_per_hour=1e-3),
    ]
    drives = np.array([parity + 9, parity + 2], dtype=float)
    hours = np.array([43_800.0, 1_000.0])
    figures = chain_figures(parity, ChainInputs.from_rates(drives, rates, hours), mttdl=True)
    for i, r in enumerate(rates):
        expected = _reference(parity, int(drives[i]), r, float(hours[i]))
        for name in (*FIGURES, "mttdl_hours"):
            value = getattr(figures, name)[i]
            if abs(expected[name]) < ZERO:
                assert value == 0.0
            else:
                assert reference.relative_error(value, expected[name]) < TOLERANCE, (i, name)


@pytest.mark.parametrize("parity", [1, 2, 3])
def test_neutral_values_give_exactly_the_independent_figures(parity: int) -> None:
    """m = 1 and no shocks in a correlated stack: the same bits as the independent chain."""
    independent = Rates(4.3e-6, 1.7e-4, 23.0, 151.0)
    neutral = dataclasses.replace(independent, shocks_per_hour=3e-4)  # shocks that fail none
    rates = [independent, neutral, CORRELATED]
    drives = np.full(3, parity + 7.0)
    hours = np.full(3, 43_800.0)
    mixed = chain_figures(parity, ChainInputs.from_rates(drives, rates, hours), mttdl=True)
    alone = chain_figures(
        parity, ChainInputs.from_rates(drives[:1], [independent], hours[:1]), mttdl=True
    )
    one = loss_figures(parity, parity + 7, neutral, 43_800.0, mttdl=True)
    for name in (*FIGURES, *GOING_ON, "mttdl_hours"):
        assert getattr(mixed, name)[0] == getattr(alone, name)[0], name
        assert getattr(mixed, name)[1] == getattr(alone, name)[0], name
        assert getattr(one, name) == pytest.approx(getattr(alone, name)[0], rel=1e-14), name


def test_the_chain_lists_each_loss_with_its_kind() -> None:
    """k = 2: shocks out of (0, 1) take 2 drives (sectors) or 3 and more (the group)."""
    chain = build_chain(2, correlated=True)
    names = [s.short() for s in chain.states]
    losses = {
        (names[t.source], t.event.value, t.shock, t.shock_tail, t.kind)
        for t in chain.transitions
        if t.target == chain.loss_index
    }
    shock = CommonCause.SHOCK.value
    assert ("(0,1)", shock, 2, False, LossKind.SECTORS) in losses
    assert ("(0,1)", shock, 3, True, LossKind.GROUP) in losses
    assert ("(0,0)", shock, 3, True, LossKind.GROUP) in losses
    assert ("(1,1)", "lambda_op", 0, False, LossKind.SECTORS) in losses
    assert ("(2,0)", "lambda_op", 0, False, LossKind.GROUP) in losses
    assert chain.sector_loss_sources == (names.index("(0,1)"), names.index("(1,1)"))
    plain = build_chain(2)
    assert not any(t.shock for t in plain.transitions)
    assert plain.sector_loss_sources == (names.index("(1,1)"),)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("degraded_multiplier", 0.5, "degraded_multiplier must be >= 1"),
        ("degraded_multiplier", float("nan"), "degraded_multiplier must be >= 1"),
        ("degraded_multiplier", float("inf"), "degraded_multiplier must be >= 1"),
        ("shocks_per_hour", -1e-6, "shocks_per_hour must be >= 0"),
        ("shocks_per_hour", float("inf"), "shocks_per_hour must be >= 0"),
        ("shock_drive_probability", 1.5, "shock_drive_probability must be in [0, 1]"),
        ("shock_drive_probability", float("nan"), "shock_drive_probability must be in [0, 1]"),
    ],
)
def test_rates_and_stacks_refuse_the_same_correlation_values(
    field: str, value: float, message: str
) -> None:
    """One set of rates (numbers) and a stack (arrays) refuse the same values alike."""
    with pytest.raises(ValueError, match=re.escape(message)):
        dataclasses.replace(CORRELATED, **{field: value})
    good = ChainInputs.from_rates(np.array([9.0, 9.0]), [CORRELATED] * 2, [43_800.0] * 2)
    with pytest.raises(ValueError, match=re.escape(message)):
        dataclasses.replace(
            good,
            **{
                field: np.array([1.0, value])
                if field == "degraded_multiplier"
                else np.array([0.0, value])
            },
        )
