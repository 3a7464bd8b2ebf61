"""One evaluation per layout: the stacked figures, threads, blocks and the one-matrix path.

The figures are checked against the independent mpmath chains of tests/reference.py (the
paper's rules, not planner's code); the threaded, blocked and one-matrix paths against
the properties they promise: the same bits whatever the number of threads or blocks, and
the same numbers (to a few ulps) as the stacked path.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from planner.core.design.sweep import SweepPoint, parameter_points, sweep
from planner.core.markov import expm, loss_figures
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.expm import EntryJob, expm_entries, expm_metzler
from planner.core.markov.expm_one import expm_entry
from planner.core.markov.generator import generator_of, generator_stack, transition_matrix
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.rates import PAPER_RATES, Rates
from planner.core.markov.solve import mttdl_stack
from planner.core.markov.transient import loss_figures as one_layout
from planner.core.markov.transient import mttdl_hours, p_loss_group
from tests import reference

YEAR = 8760.0
FIGURES = (
    "p_loss",
    "p_group_lost",
    "p_sectors_lost",
    "expected_sector_loss_events",
    "expected_group_losses",
    "degraded_hours_per_year",
    "critical_hours_per_year",
)


def many_groups(parity: int, count: int, seed: int) -> ChainInputs:
    """Random groups with many different numbers of squarings (many chunks)."""
    rng = np.random.default_rng(seed)
    return ChainInputs.of(
        parity + rng.integers(1, 40, count),
        10.0 ** rng.uniform(-7.5, -4.5, count),
        10.0 ** rng.uniform(-6.0, -3.5, count),
        rng.uniform(2.0, 100.0, count),
        rng.uniform(24.0, 1000.0, count),
        rng.uniform(1.0, 10 * YEAR, count),
        rebuild_streams=None if parity == 3 else 1,
    )


@pytest.mark.parametrize("parity", [1, 3])
def test_threads_give_the_same_bits_as_one(parity: int) -> None:
    inputs = many_groups(parity, 3 * expm.CHUNK + 17, seed=parity)
    one = chain_figures(parity, inputs, threads=1, mttdl=True)
    for threads in (2, 3, 8):
        many = chain_figures(parity, inputs, threads=threads, mttdl=True)
        for name in (*FIGURES, "mttdl_hours"):
            assert np.array_equal(getattr(one, name), getattr(many, name)), (threads, name)


def test_expm_metzler_threads_give_the_same_bits() -> None:
    q = generator_stack(2, np.arange(3, 40), 2e-6, 1e-4, 12.0, 168.0)
    g = q * np.linspace(10.0, 10 * YEAR, 50)[:, None, None, None]  # 50 x 37 matrices
    one = expm_metzler(g, generator=True, threads=1)
    assert np.array_equal(one, expm_metzler(g, generator=True, threads=4))


def test_a_chunk_error_reaches_the_caller_from_a_thread() -> None:
    g = np.zeros((3 * expm.CHUNK, 3, 3))
    g[-1, 0, 1] = -1.0  # one bad matrix, in the last chunk
    with pytest.raises(ValueError, match="non-negative"):
        expm_metzler(g, threads=2)


def test_blocks_give_the_same_bits_as_one_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    inputs = many_groups(2, 700, seed=5)
    whole = chain_figures(2, inputs, mttdl=True)
    monkeypatch.setattr(loss_figures, "STACK_BYTES", 1)  # one chunk a block
    blocks = chain_figures(2, inputs, mttdl=True)
    for name in (*FIGURES, "mttdl_hours"):
        assert np.array_equal(getattr(whole, name), getattr(blocks, name)), name


def test_broadcast_inputs_keep_their_shape() -> None:
    inputs = ChainInputs.of(np.array([[6.0], [12.0]]), [1e-6, 3e-6, 9e-6], 1e-4, 12.0, 168.0, YEAR)
    figures = chain_figures(2, inputs, mttdl=True)
    assert figures.p_loss.shape == figures.mttdl_hours.shape == (2, 3)  # type: ignore[union-attr]
    assert np.all(np.diff(figures.p_loss, axis=1) > 0)


@pytest.mark.parametrize(("parity", "drives"), [(1, 8), (2, 14), (4, 9)])
def test_stack_and_one_layout_match_the_reference_chains(parity: int, drives: int) -> None:
    rates = Rates(3.7e-6, 2.3e-4, 17.0, 131.0)
    hours = 5 * YEAR
    args = (parity, drives, *reference.rate_args(rates), hours)
    expected = {
        "p_loss": reference.p_loss(*args),
        "p_group_lost": reference.group_lost(
            parity, drives, rates.op_failures_per_hour, rates.rebuild_hours, hours
        ),
        "p_sectors_lost": reference.sectors_lost(*args),
        "expected_sector_loss_events": reference.expected_sector_loss_events(*args),
    }
    stack = chain_figures(parity, ChainInputs.of_rates(drives, rates, hours), mttdl=True)
    one = one_layout(parity, drives, rates, hours, mttdl=True)
    for name, value in expected.items():
        assert reference.relative_error(float(getattr(stack, name)), value) < 1e-12, name
        assert reference.relative_error(getattr(one, name), value) < 1e-12, name
    mttdl = reference.mttdl(parity, drives, *reference.rate_args(rates))
    assert reference.relative_error(float(stack.mttdl_hours), mttdl) < 1e-12  # type: ignore[arg-type]
    assert reference.relative_error(one.mttdl_hours, mttdl) < 1e-12  # type: ignore[arg-type]
    assert one.mttdl_hours == mttdl_hours(parity, drives, rates)


def test_mttdl_stack_matches_the_reference() -> None:
    drives = np.array([5, 9, 20, 60])
    q = generator_stack(3, drives, 1e-6, 1e-5, 24.0, 168.0)
    for n, value in zip(drives.tolist(), mttdl_stack(q).tolist(), strict=True):
        expected = reference.mttdl(3, n, 1e-6, 1e-5, 24.0, 168.0)
        assert reference.relative_error(value, expected) < 1e-12


def test_the_one_matrix_path_agrees_with_the_stack() -> None:
    """expm_entry (one matrix, few NumPy calls) against the stacked path: a few ulps."""
    rng = np.random.default_rng(9)
    for _ in range(60):
        parity = int(rng.integers(1, 6))
        rates = Rates(
            10.0 ** rng.uniform(-8, -4), 10.0 ** rng.uniform(-7, -3), rng.uniform(1, 200), 500.0
        )
        drives = parity + int(rng.integers(1, 50))
        hours = 10.0 ** rng.uniform(-1, 5)
        g = transition_matrix(parity, drives, rates, hours)
        last = g.shape[0] - 1
        lean = expm_entry(g.copy(), (0, last), parity + 1)
        stacked = float(expm_metzler(g, entry=(0, last), lead_power=parity + 1, generator=True))
        assert lean == pytest.approx(stacked, rel=1e-13, abs=0)


def test_the_one_matrix_path_is_accurate_far_below_1e_15() -> None:
    """A 1e-32 probability (k = 4, no latent defects, one year) to the reference's digits."""
    rates = Rates(1e-8, 0.0, 6.0, 168.0)
    expected = reference.p_loss_eig(4, 5, *reference.rate_args(rates), YEAR)
    assert expected < 1e-30
    assert reference.relative_error(p_loss_group(4, 5, rates, YEAR), expected) < 1e-13


def test_a_reward_column_in_the_one_matrix_path() -> None:
    """Van Loan's integral with the lean path: the expected time in a state, closed form.

    One state left at rate a (to an absorbing state), reward 1 while there: the expected
    time there by T is (1 - exp(-a T)) / a.
    """
    a, t = 0.3, 7.0
    g = np.array([[0.0, a, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]) * t
    value = expm_entry(g.copy(), (0, 2), 1, reward_columns=1)
    assert value == pytest.approx(-math.expm1(-a * t) / a, rel=1e-14)


def test_entries_of_several_stacks_equal_their_own_calls() -> None:
    q = generator_of(2, many_groups(2, 300, seed=2))
    g = q * 1000.0
    jobs = [EntryJob(g, (0, 5), 3), EntryJob(g[:, :5, :5].copy(), (0, 4), 3)]
    together = expm_entries(jobs, threads=2)
    for job, values in zip(jobs, together, strict=True):
        alone = expm_metzler(job.g, entry=job.entry, lead_power=3, generator=True, threads=1)
        assert np.array_equal(values, alone)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"drives": 7.5}, "whole drives"),
        ({"op": -1.0}, "op_failures_per_hour"),
        ({"ld": math.nan}, "latent_defects_per_hour"),
        ({"share": 1.5}, "defect_stripe_share"),
        ({"hours": -1.0}, "mission_hours"),
        ({"streams": 0}, "rebuild_streams"),
    ],
)
def test_chain_inputs_are_checked_once_when_made(kwargs: dict[str, float], message: str) -> None:
    args: dict[str, float] = {"drives": 8, "op": 2e-6, "ld": 1e-4, "rebuild": 12.0}
    args |= {"scrub": 168.0, "hours": YEAR, "share": 1.0, "streams": 1}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        ChainInputs.of(
            args["drives"],
            args["op"],
            args["ld"],
            args["rebuild"],
            args["scrub"],
            args["hours"],
            rebuild_streams=int(args["streams"]),
            defect_stripe_share=args["share"],
        )


def test_the_parity_check_names_the_parity() -> None:
    inputs = ChainInputs.of([3, 8], 2e-6, 1e-4, 12.0, 168.0, YEAR)
    with pytest.raises(ValueError, match="more than 3"):
        chain_figures(3, inputs)


def test_sweep_columns_equal_single_layout_evaluations() -> None:
    """Every figure of a sweep's columns, row by row, against one layout at a time."""
    base = SweepPoint(PAPER_RATES, 5 * YEAR, 42)
    points = parameter_points(base, "rebuild_hours", [6.0, 24.0, 72.0])
    columns = sweep(points, [(k, n) for k in (1, 2, 3) for n in range(4, 30, 5)], True)
    assert len(columns) == 3 * 3 * 6
    for row in columns:
        rates = Rates(
            PAPER_RATES.op_failures_per_hour,
            PAPER_RATES.latent_defects_per_hour,
            row.value or 0.0,
            PAPER_RATES.scrub_hours,
        )
        one = one_layout(row.parity, row.group_size, rates, 5 * YEAR)
        assert row.p_loss_group == pytest.approx(one.p_loss, rel=1e-12)
        assert row.p_group_lost == pytest.approx(one.p_group_lost, rel=1e-12)
        assert row.p_sectors_lost == pytest.approx(one.p_sectors_lost, rel=1e-12)
        assert row.expected_sector_loss_events_group == pytest.approx(
            one.expected_sector_loss_events, rel=1e-12
        )
        groups = math.ceil(42 / (row.group_size - row.parity))
        assert row.groups == groups
        assert row.total_disks == groups * row.group_size
        assert row.overhead_disks == groups * row.parity
        expected = reference.aggregate(mpmath.mpf(one.p_loss), groups)
        assert reference.relative_error(row.p_loss_aggregate, expected) < 1e-12
