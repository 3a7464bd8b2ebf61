"""The chain of ageing drives: hazard laws, the mission in pieces, the bracket, both paths.

Every figure is checked against the time-inhomogeneous chain of ``tests/reference.py``
(mpmath at 40 digits, written from the rules): a table of rates by year is exact in pieces,
so planner's figures must equal the reference's; a Weibull's pieces are checked with the
same rates, and the bracket against the reference run with rates anywhere inside each
piece's range (what an exact hazard is).
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings

import numpy as np
import pytest

from planner.core.markov import expm_compiled, piecewise_carry
from planner.core.markov.ageing import (
    Ageing,
    HazardTable,
    WeibullHazard,
    initial_edges,
    pieces_between,
)
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.piecewise import aged_chain_figures
from planner.core.markov.piecewise_carry import carried_figures
from tests import reference

YEAR = 8760.0
FIGURES = ("p_loss", "p_group_lost", "p_sectors_lost", "expected_sector_loss_events")


def _inputs(parity: int, drives: int, lld: float, **correlation: float) -> ChainInputs:
    return ChainInputs.of(drives, 0.02 / YEAR, lld, 14.0, 150.0, 3 * YEAR, **correlation)


def test_the_laws_integrate_their_rates() -> None:
    """H of a table is the sum of its years' rates x hours; a Weibull's first year is the ARR."""
    table = HazardTable((0.01 / YEAR, 0.03 / YEAR, 0.05 / YEAR))
    assert table.cumulative_hazard(1.5 * YEAR) == pytest.approx(0.01 + 0.5 * 0.03, rel=1e-14)
    assert table.cumulative_hazard(5 * YEAR) == pytest.approx(0.04 + 3 * 0.05, rel=1e-14)
    assert table.hazard_range(0.5 * YEAR, 2.0 * YEAR) == (0.01 / YEAR, 0.03 / YEAR)
    ages = np.array([10.0, 9000.0, 20_000.0, 60_000.0])
    back = table.inverse_cumulative_hazard(table.cumulative_hazard(ages))
    np.testing.assert_allclose(back, ages, rtol=1e-12)
    weibull = WeibullHazard.with_first_year_rate(1.4, 0.025 / YEAR)
    assert weibull.cumulative_hazard(YEAR) == pytest.approx(0.025, rel=1e-14)
    # the hazard is the derivative of H (central difference)
    h = 1e-3
    slope = (weibull.cumulative_hazard(3e4 + h) - weibull.cumulative_hazard(3e4 - h)) / (2 * h)
    assert weibull.hazard(3e4) == pytest.approx(slope, rel=1e-7)
    assert float(weibull.hazard(0.0)) == 0.0
    assert np.isinf(WeibullHazard(0.7, 1e5).hazard(0.0))


@pytest.mark.parametrize(
    ("parity", "drives", "lld", "correlation"),
    [
        (1, 6, 1.0e-4, {}),
        (2, 10, 0.0, {}),
        (2, 12, 1.5e-4, {"degraded_multiplier": 2.5}),
        (3, 14, 8.0e-5, {}),
    ],
)
def test_a_table_is_exact_against_the_reference(
    parity: int, drives: int, lld: float, correlation: dict[str, float]
) -> None:
    """A table of ARR by year: every figure equals the reference's product of exponentials."""
    years = [0.015, 0.03, 0.045]
    ageing = Ageing(HazardTable(tuple(a / YEAR for a in years)), age_at_start_hours=0.5 * YEAR)
    got = aged_chain_figures(parity, _inputs(parity, drives, lld, **correlation), ageing)
    assert got.converged
    np.testing.assert_array_equal(got.p_loss_low, got.p_loss_high)
    rates, hours = reference.table_pieces([a / YEAR for a in years], 0.5 * YEAR, 3 * YEAR)
    assert len(rates) == 3  # half of year 1, year 2, then year 3's rate for 1.5 years
    expected = reference.aged_figures(
        parity, drives, rates, hours, lld, 14.0, 150.0,
        correlation.get("degraded_multiplier", 1), dps=30,
    )  # fmt: skip
    for name in FIGURES:
        value = float(getattr(got.figures, name))
        if expected[name] == 0:
            assert value == 0
            continue
        assert float(reference.relative_error(value, expected[name])) < 1e-12, name


def test_a_constant_table_is_the_constant_rate_chain() -> None:
    """The same rate every year: one piece, the constant-rate chain's figures bit for bit."""
    inputs = ChainInputs.of(np.array([8.0, 12.0, 16.0]), 0.021 / YEAR, 1e-4, 12.0, 168.0, 5 * YEAR)
    table = HazardTable((0.021 / YEAR,) * 4)
    got = aged_chain_figures(2, inputs, Ageing(table, 2 * YEAR))
    plain = chain_figures(2, inputs)
    assert got.pieces == 1
    for name in FIGURES:
        np.testing.assert_array_equal(getattr(got.figures, name), getattr(plain, name))
    np.testing.assert_array_equal(got.p_loss_low, plain.p_loss)
    np.testing.assert_array_equal(got.p_loss_high, plain.p_loss)


def _weibull_case() -> tuple[ChainInputs, Ageing]:
    law = WeibullHazard.with_first_year_rate(1.6, 0.02 / YEAR)
    return _inputs(2, 10, 1.2e-4), Ageing(law, age_at_start_hours=YEAR)


def test_the_pieces_carry_as_the_reference_does() -> None:
    """A Weibull in 2 pieces: the four figures at the pieces' mean rates, and both ends of
    the bracket, equal the reference's products over the same pieces."""
    inputs, ageing = _weibull_case()
    pieces = pieces_between(ageing, initial_edges(ageing, 3 * YEAR, 2))
    run = carried_figures(2, inputs.ravel(), ageing, pieces)
    hours = list(pieces.hours)
    expected = reference.aged_figures(2, 10, list(pieces.mean), hours, 1.2e-4, 14.0, 150.0, dps=30)
    for name in FIGURES:
        value = float(getattr(run.figures, name)[0])
        assert float(reference.relative_error(value, expected[name])) < 1e-12, name
    low, high = reference.aged_bounds(
        2, 10, list(pieces.low), list(pieces.mean), list(pieces.high), hours, 1.2e-4, 14.0, 150.0
    )
    assert float(reference.relative_error(float(run.p_loss_low[0]), low)) < 1e-12
    assert float(reference.relative_error(float(run.p_loss_high[0]), high)) < 1e-12


SLOW_SCRUBS = {"lld": 5.39e-6, "rebuild": 25.1, "scrub": 19_450.0, "m": 1.54}
"""A regime where P(loss) falls as one year's failure rate rises: defects live two years
(slow scrubs) and a failure takes its defect with it (found by a search, checked below)."""


def test_more_failures_can_lower_the_risk() -> None:
    """k = 3, N = 6: raising year 2's ARR from 1.6% to 2.5% lowers P(loss) by 0.17%, in
    planner and in the reference alike. P(loss) is not monotone in the failure rate, so the
    bracket must not (and does not) rest on that."""
    years = [0.0338, 0.0164, 0.190]
    more = [years[0], 1.5 * years[1], years[2]]
    r = SLOW_SCRUBS
    inputs = ChainInputs.of(6, 1e-6, r["lld"], r["rebuild"], r["scrub"], 3 * YEAR,
                            degraded_multiplier=r["m"])  # fmt: skip
    found = []
    for table in (years, more):
        rates = [a / YEAR for a in table]
        got = aged_chain_figures(3, inputs, Ageing(HazardTable(tuple(rates))))
        pieces, hours = reference.table_pieces(rates, 0.0, 3 * YEAR)
        expected = reference.aged_figures(
            3, 6, pieces, hours, r["lld"], r["rebuild"], r["scrub"], r["m"],
            only_p_loss=True, dps=30,
        )["p_loss"]  # fmt: skip
        assert float(reference.relative_error(float(got.figures.p_loss), expected)) < 1e-12
        found.append(expected)
    assert found[1] < found[0] * (1 - 1e-3)


@pytest.mark.parametrize("regime", ["ordinary", "slow scrubs"])
def test_the_bracket_holds_any_hazard_inside_the_pieces(regime: str) -> None:
    """The reference with every piece's rate drawn anywhere in its range (a hazard the
    pieces cannot tell from the Weibull's) lies in planner's bracket, also where P(loss)
    does not rise with the failure rate."""
    if regime == "ordinary":
        inputs, ageing = _weibull_case()
        parity, drives, lld, rebuild, scrub, m = 2, 10, 1.2e-4, 14.0, 150.0, 1.0
    else:
        r = SLOW_SCRUBS
        parity, drives, lld, rebuild, scrub, m = 3, 6, r["lld"], r["rebuild"], r["scrub"], r["m"]
        inputs = ChainInputs.of(drives, 1e-6, lld, rebuild, scrub, 3 * YEAR, degraded_multiplier=m)
        ageing = Ageing(WeibullHazard.with_first_year_rate(2.5, 0.02 / YEAR))
    pieces = pieces_between(ageing, initial_edges(ageing, 3 * YEAR, 4))
    got = carried_figures(parity, inputs.ravel(), ageing, pieces)
    rng = np.random.default_rng(7)
    # finer pieces than planner's, each rate inside the planner piece that holds it
    sub = pieces_between(ageing, initial_edges(ageing, 3 * YEAR, 12))
    mids = (sub.edges[:-1] + sub.edges[1:]) / 2
    holder = np.searchsorted(pieces.edges, mids) - 1
    rates = pieces.low[holder] + rng.random(sub.count) * (pieces.high - pieces.low)[holder]
    exact = reference.aged_figures(
        parity, drives, list(rates), list(sub.hours), lld, rebuild, scrub, m,
        only_p_loss=True, dps=20,
    )  # fmt: skip
    assert float(got.p_loss_low[0]) < exact["p_loss"] < float(got.p_loss_high[0])


def test_the_bracket_narrows_and_the_value_settles() -> None:
    """Halving the pieces roughly halves the bracket; each bracket holds the finest value."""
    inputs, ageing = _weibull_case()
    flat = inputs.ravel()
    runs = [
        carried_figures(2, flat, ageing, pieces_between(ageing, initial_edges(ageing, 3 * YEAR, n)))
        for n in (6, 12, 24, 48, 96)
    ]
    widths = [float(r.p_loss_high[0] - r.p_loss_low[0]) for r in runs]
    values = [float(r.figures.p_loss[0]) for r in runs]
    for wide, narrow in itertools.pairwise(widths):
        assert 0.4 < narrow / wide < 0.6
    steps = np.abs(np.diff(values))
    assert np.all(steps[1:] < steps[:-1])
    for r in runs:
        assert float(r.p_loss_low[0]) <= values[-1] <= float(r.p_loss_high[0])
    refined = aged_chain_figures(2, inputs, ageing, tolerance=0.01)
    assert refined.converged
    assert float(refined.p_loss_high - refined.p_loss_low) <= 0.01 * float(refined.figures.p_loss)


def test_an_unbounded_hazard_at_the_start_is_bracketed() -> None:
    """Shape 0.7 with new drives: the hazard is infinite at age 0. The upper chain takes the
    first piece as lost if anything happens in it; the bracket still narrows to 2%, and
    holds the reference run with a finite rate ten times the first piece's mean there."""
    law = WeibullHazard.with_first_year_rate(0.7, 0.03 / YEAR)
    ageing = Ageing(law)
    inputs = _inputs(1, 6, 1e-4)
    got = aged_chain_figures(1, inputs, ageing, tolerance=0.02)
    assert got.converged
    coarse = pieces_between(ageing, initial_edges(ageing, 3 * YEAR, 6, 3 * YEAR / 6 / 16**3))
    run = carried_figures(1, inputs.ravel(), ageing, coarse)
    assert np.isinf(coarse.high[0])
    assert run.delta[0] > 0
    rates = [*coarse.high[1:]]
    rates.insert(0, 10 * coarse.mean[0])
    above = reference.aged_figures(
        1, 6, rates, list(coarse.hours), 1e-4, 14.0, 150.0, only_p_loss=True, dps=20
    )
    assert float(run.p_loss_low[0]) <= float(got.figures.p_loss) <= float(run.p_loss_high[0])
    assert above["p_loss"] <= float(run.p_loss_high[0])


@pytest.mark.parametrize("path", ["rows", "numpy"])
def test_the_three_ways_of_carrying_agree(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Row by row on the kernel, whole exponentials with the kernel, and without it."""
    rng = np.random.default_rng(3)
    count = 40
    inputs = ChainInputs.of(
        rng.integers(5, 20, count).astype(float),
        0.02 / YEAR,
        10 ** rng.uniform(-6, -4, count),
        rng.uniform(8, 40, count),
        168.0,
        3 * YEAR,
        degraded_multiplier=rng.uniform(1, 3, count),
    )
    ageing = Ageing(WeibullHazard.with_first_year_rate(0.8, 0.03 / YEAR))
    edges = initial_edges(ageing, 3 * YEAR, 12, 3 * YEAR / 12 / 16**4)
    pieces = pieces_between(ageing, edges)
    base = carried_figures(2, inputs, ageing, pieces)
    if path == "rows":
        if not expm_compiled.kernel_enabled():
            pytest.skip("the compiled kernel is not built")
        monkeypatch.setattr(piecewise_carry, "KERNEL_MIN_GROUPS", 1)
    else:
        monkeypatch.setattr(expm_compiled, "KERNEL", None)
    other = carried_figures(2, inputs, ageing, pieces)
    for a, b in (
        *((getattr(base.figures, n), getattr(other.figures, n)) for n in FIGURES),
        (base.p_loss_low, other.p_loss_low),
        (base.p_loss_high, other.p_loss_high),
    ):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_one_mission_per_stack() -> None:
    inputs = dataclasses.replace(
        ChainInputs.of(np.array([8.0, 9.0]), 1e-6, 1e-4, 12.0, 168.0, 1.0),
        mission_hours=np.array([1e4, 2e4]),
    )
    ageing = Ageing(WeibullHazard(1.5, 1e5))
    with pytest.raises(ValueError, match="one mission"):
        aged_chain_figures(1, inputs, ageing)


def _steepest(hours: float) -> WeibullHazard:
    """Shape 10 whose rate reaches the scenario limit, 10 failures a year, at ``hours``."""
    scale = (10 / YEAR * hours**9 / 10) ** (1 / 10)  # h(t) = 10 / scale (t / scale)^9
    return WeibullHazard(10.0, scale)


@pytest.mark.parametrize("parity", [1, 8])
def test_the_corners_of_the_ageing_limits_evaluate_without_a_warning(parity: int) -> None:
    """Shapes 0.2 and 10, ages 0 and 50 years, a table of 50 years at both ends of the ARR,
    groups of k + 1 and 1,000 drives: finite figures in [0, 1], the value in its bracket."""
    laws = [
        Ageing(_steepest(51 * YEAR), 50 * YEAR),
        Ageing(WeibullHazard.with_first_year_rate(0.2, 1e-6 / YEAR)),
        Ageing(HazardTable((0.999999 / YEAR,) * 49 + (1e-6 / YEAR,)), 0.5 * YEAR),
    ]
    for drives in (parity + 1, 1000):
        inputs = ChainInputs.of(drives, 1e-6, 1e-4, 12.0, 168.0, YEAR)
        for ageing in laws:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                got = aged_chain_figures(parity, inputs, ageing, tolerance=0.5, max_pieces=64)
            for name in FIGURES[:3]:
                assert 0 <= float(getattr(got.figures, name)) <= 1, (drives, ageing, name)
            assert np.isfinite(got.figures.expected_sector_loss_events)
            assert got.p_loss_low <= got.figures.p_loss <= got.p_loss_high
