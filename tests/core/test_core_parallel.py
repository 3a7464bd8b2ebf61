"""Parallel rebuilds: a state with f failed drives rebuilds at min(f, streams) x mu_op.

Checked against the independent mpmath chain of ``tests/reference.py`` (written from that
rule, not from planner.core.markov.chain) and against the classic closed forms of the MTTDL with one
and with two repair crews, without latent defects, derived here.

**Closed forms.** Without latent defects the chain is a birth-death chain on the number of
failed drives f = 0 .. k with absorption (loss) at k + 1: up-rates ``a_f = (N - f) lambda``
and down-rates ``m_f`` (``mu`` with one crew; ``min(f, c) mu`` with c crews). The expected
time to absorption from 0 of such a chain is (sum over the levels i the chain must pass,
of the expected time spent at i per passage times the expected returns)

    MTTDL = sum_{i=0}^{k} sum_{j=0}^{i} (1 / a_j) prod_{l=j+1}^{i} (m_l / a_l).

k = 1 (one failed drive at most, so crews do not matter):

    MTTDL = 1/a0 + 1/a1 + m1/(a0 a1) = ((2N - 1) lambda + mu) / (N (N - 1) lambda^2).

k = 2, with m1 = mu and m2 = mu (one crew) or 2 mu (two crews):

    MTTDL = [a1 a2 + a0 a2 + m1 a2 + a0 a1 + a0 m2 + m1 m2] / (a0 a1 a2),

whose leading term for lambda << mu is m1 m2 / (a0 a1 a2): mu^2 / (N (N-1) (N-2) lambda^3)
with one crew, twice that with two (the k! of the issue for k = 2).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from planner.core.design.sensitivity import elasticities
from planner.core.design.sweep import Parameter, SweepPoint, sweep
from planner.core.markov.batch import p_loss_group_batch
from planner.core.markov.chain import Event, build_chain
from planner.core.markov.rates import PAPER_RATES, Rates, arr_to_failures_per_hour
from planner.core.markov.symbolic import derive
from planner.core.markov.transient import mttdl_hours, p_loss_group, transition_rates
from tests import reference

YEAR = 8_760.0
ISSUE = Rates(arr_to_failures_per_hour(0.2), 0.0, 100.0, 168.0)


@pytest.mark.parametrize(
    ("parity", "drives", "rates", "hours"),
    [
        (1, 8, PAPER_RATES, 5 * YEAR),
        (2, 10, ISSUE, 10 * YEAR),
        (2, 16, PAPER_RATES, 5 * YEAR),
        (3, 16, PAPER_RATES, 5 * YEAR),
        (4, 24, PAPER_RATES, 5 * YEAR),
        (3, 12, Rates(3e-5, 2e-4, 60.0, 100.0), 20 * YEAR),
    ],
)
@pytest.mark.parametrize("streams", [1, 2, 3, None])
def test_parallel_rebuilds_match_the_mpmath_chain(
    parity: int, drives: int, rates: Rates, hours: float, streams: int | None
) -> None:
    parallel = replace(rates, rebuild_streams=streams)
    args = (
        parity,
        drives,
        rates.op_failures_per_hour,
        rates.latent_defects_per_hour,
        rates.rebuild_hours,
        rates.scrub_hours,
    )
    exact_p = reference.p_loss(*args, hours, streams=streams)
    exact_mttdl = reference.mttdl(*args, streams=streams)
    assert reference.relative_error(p_loss_group(parity, drives, parallel, hours), exact_p) < 1e-9
    assert reference.relative_error(mttdl_hours(parity, drives, parallel), exact_mttdl) < 1e-9


def test_issue_case_halves_with_parallel_rebuilds() -> None:
    """The issue's RAID 6 of 10 (ARR 20%, 100 h, 10 years): 7.159e-3 one at a time,
    3.622e-3 with both failed drives rebuilt at once."""
    one = p_loss_group(2, 10, ISSUE, 10 * YEAR)
    both = p_loss_group(2, 10, replace(ISSUE, rebuild_streams=None), 10 * YEAR)
    assert one == pytest.approx(7.159e-3, rel=1e-3)
    assert both == pytest.approx(3.622e-3, rel=1e-3)
    assert p_loss_group(2, 10, replace(ISSUE, rebuild_streams=2), 10 * YEAR) == both


def closed_form_mttdl(parity: int, drives: int, lam: float, mu: float, crews: int) -> float:
    """The birth-death MTTDL of the module docstring, written out for k = 1 and 2."""
    n = drives
    if parity == 1:
        return ((2 * n - 1) * lam + mu) / (n * (n - 1) * lam**2)
    a0, a1, a2 = n * lam, (n - 1) * lam, (n - 2) * lam
    m1, m2 = mu, min(2, crews) * mu
    numerator = a1 * a2 + a0 * a2 + m1 * a2 + a0 * a1 + a0 * m2 + m1 * m2
    return numerator / (a0 * a1 * a2)


@pytest.mark.parametrize("parity", [1, 2])
@pytest.mark.parametrize("crews", [1, 2])
@pytest.mark.parametrize(("drives", "lam", "rebuild_hours"), [(8, 2.17e-6, 12.0), (5, 1e-3, 50.0)])
def test_mttdl_matches_repair_crew_closed_forms(
    parity: int, crews: int, drives: int, lam: float, rebuild_hours: float
) -> None:
    rates = Rates(lam, 0.0, rebuild_hours, 168.0, rebuild_streams=crews)
    expected = closed_form_mttdl(parity, drives, lam, 1 / rebuild_hours, crews)
    assert mttdl_hours(parity, drives, rates) == pytest.approx(expected, rel=1e-11)


def test_two_crews_double_the_k2_mttdl_at_leading_order() -> None:
    lam, mu = 1e-7, 1 / 12
    one = closed_form_mttdl(2, 16, lam, mu, 1)
    two = closed_form_mttdl(2, 16, lam, mu, 2)
    assert two / one == pytest.approx(2.0, rel=1e-4)


def test_symbolic_derivation_has_min_f_streams_rebuilds() -> None:
    """derive(k, streams): the generator entry (2,0) -> (1,0) is 2 mu_op, and the closed form
    evaluates to the numeric MTTDL."""
    import sympy as sp

    d = derive(2, None)
    chain = build_chain(2, None)
    rebuild = [t for t in chain.transitions if t.event is Event.REBUILD]
    assert [t.concurrent for t in rebuild] == [1, 1, 2]
    s = d.symbols
    two_failed = chain.states.index(next(x for x in chain.states if (x.failed, x.latent) == (2, 0)))
    one_failed = chain.states.index(next(x for x in chain.states if (x.failed, x.latent) == (1, 0)))
    assert sp.simplify(d.generator[two_failed, one_failed] - 2 * s["mu_op"]) == 0
    rates = replace(PAPER_RATES, rebuild_streams=None)
    values = {s["N"]: 16, **{s[k]: v for k, v in rates.by_symbol().items()}}
    symbolic = float(d.mttdl.subs(values))
    assert symbolic == pytest.approx(mttdl_hours(2, 16, rates), rel=1e-10)


def test_streams_beyond_the_failed_drives_change_nothing() -> None:
    base = replace(PAPER_RATES, rebuild_streams=3)
    everything = replace(PAPER_RATES, rebuild_streams=None)
    assert p_loss_group(3, 16, base, 5 * YEAR) == p_loss_group(3, 16, everything, 5 * YEAR)
    rows = transition_rates(3, 16, replace(PAPER_RATES, rebuild_streams=2))
    mu = 1 / PAPER_RATES.rebuild_hours
    rebuilds = sorted(rate for _, _, event, rate in rows if event is Event.REBUILD)
    # (1,0), (1,1) at mu; (2,0), (2,1), (3,0) at 2 mu with two streams
    assert rebuilds == pytest.approx([mu, mu, 2 * mu, 2 * mu, 2 * mu])


def test_batch_sweep_and_sensitivity_carry_the_streams() -> None:
    rates = replace(PAPER_RATES, rebuild_streams=None)
    exact = p_loss_group(3, 16, rates, 5 * YEAR)
    batch = p_loss_group_batch(
        3, 16, *(getattr(rates, f) for f in _RATE_FIELDS), 5 * YEAR, rebuild_streams=None
    )
    assert float(batch) == pytest.approx(exact, rel=1e-12)
    point = SweepPoint(rates, 5 * YEAR, 42)
    row = sweep([point], [(3, 16)], include_uneven=True)[0]
    assert row.p_loss_group == pytest.approx(exact, rel=1e-12)
    # The elasticity to the rebuild time against a central difference of the exact chain.
    step = 1e-4
    up = p_loss_group(3, 16, replace(rates, rebuild_hours=12 * (1 + step)), 5 * YEAR)
    down = p_loss_group(3, 16, replace(rates, rebuild_hours=12 * (1 - step)), 5 * YEAR)
    numeric = (up - down) / (2 * step * exact)
    e = elasticities(
        3, 16, *(getattr(rates, f) for f in _RATE_FIELDS), 5 * YEAR, rebuild_streams=None
    )
    assert float(e[Parameter.REBUILD_HOURS]) == pytest.approx(numeric, rel=1e-5)


_RATE_FIELDS = ("op_failures_per_hour", "latent_defects_per_hour", "rebuild_hours", "scrub_hours")
