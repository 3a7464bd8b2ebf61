"""The compiled exponential (planner.core.markov._metzler) against mpmath and the NumPy path.

Three independent checks:

* accuracy: P(loss) of random chains (k = 1..4, missions of hours to decades, entries down to
  1e-40) against tests/reference.py's 50-digit mpmath exponential of a chain written from the
  rules, on both paths (the kernel and the NumPy path of expm.py it replaced);
* the four loss-figure chains of one sweep stack, kernel against NumPy path;
* lanes: each matrix is computed alone (any chunking, thread count, neighbour in its group of
  eight, one matrix or a stack: the same bits).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import mpmath
import numpy as np
import pytest

from planner.core.markov import expm_compiled
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.expm import EntryJob, expm_entries, expm_metzler
from planner.core.markov.expm_compiled import ADD, ASSIGN, MOVE, RowJob, expm_row_one, expm_rows
from planner.core.markov.generator import GeneratorParts, generator_of, generator_parts_of
from planner.core.markov.going_on import (
    REWARD_COLUMNS,
    going_on_extra,
    going_on_job,
    going_on_matrix,
)
from planner.core.markov.loss_figures import group_lost_stack, sectors_lost_generator
from tests import reference


def test_the_kernels_are_built() -> None:
    """`make test` builds both C extensions: CI must run the paths users get."""
    from planner.report.row_join import JOINER

    assert expm_compiled.kernel_enabled(), "planner.core.markov._metzler was not built"
    assert JOINER is not None, "planner.report._rows was not built"


def on_each_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the loop body on each path: the compiled kernel, then the NumPy path (KERNEL None).

    One test walks both paths so that each mpmath reference is computed once for the two.
    """
    yield "compiled"
    with monkeypatch.context() as patched:
        patched.setattr(expm_compiled, "KERNEL", None)
        yield "numpy"


Chain = tuple[int, int, float, float, float, float, float]


def _random_chains(count: int, seed: int) -> list[Chain]:
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(count):
        k = int(rng.integers(1, 5))
        cases.append(
            (
                k,
                int(rng.integers(k + 1, 61)),
                float(10 ** rng.uniform(-3.5, -0.5)) / 8760,  # ARR 0.03 % to 30 %
                float(10 ** rng.uniform(-9, -3)),
                float(10 ** rng.uniform(-0.5, 2.5)),  # rebuilds of 20 min to 13 days
                float(10 ** rng.uniform(0.5, 4)),
                float(10 ** rng.uniform(0, 5.2)),  # an hour to 18 years
            )
        )
    return cases


def test_p_loss_matches_50_digit_mpmath(monkeypatch: pytest.MonkeyPatch) -> None:
    chains = _random_chains(24, seed=7)
    expected = [reference.p_loss(*chain) for chain in chains]
    for kernel in on_each_path(monkeypatch):
        worst = 0.0
        for (k, n, lop, lld, rebuild, scrub, hours), want in zip(chains, expected, strict=True):
            inputs = ChainInputs.of(float(n), lop, lld, rebuild, scrub, hours)
            g = generator_of(k, inputs) * hours
            p = float(expm_metzler(g, entry=(0, k * 2 + 1), lead_power=k + 1, generator=True))
            worst = max(worst, float(reference.relative_error(p, want)))
        assert worst < 1e-13, f"{kernel}: worst relative error {worst:.2e}"


def test_tiny_probabilities_keep_their_digits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Triple and quadruple parity over hours: P(loss) near 1e-30, still to 1e-13."""
    cases = ((3, 1.0, 1e-8), (4, 10.0, 1e-8), (4, 1.0, 1e-7))
    expected = [reference.p_loss(k, 12, lop, 1e-7, 10.0, 100.0, hours) for k, hours, lop in cases]
    for kernel in on_each_path(monkeypatch):
        for (k, hours, lop), want in zip(cases, expected, strict=True):
            inputs = ChainInputs.of(12.0, lop, 1e-7, 10.0, 100.0, hours)
            g = generator_of(k, inputs) * hours
            p = float(expm_metzler(g, entry=(0, 2 * k + 1), lead_power=k + 1, generator=True))
            assert want < 1e-27
            assert float(reference.relative_error(p, want)) < 1e-13, kernel


def _sweep_inputs(k: int) -> ChainInputs:
    drives = np.repeat(np.arange(k + 1, 40), 7).astype(float)
    arr = np.tile(np.linspace(0.005, 0.2, 7), 39 - k)
    return ChainInputs.of(drives, arr / 8760, 1.08e-4, 12.0, 168.0, 43800.0)


def _sweep_stack(k: int) -> tuple[np.ndarray, int]:
    return generator_of(k, _sweep_inputs(k)) * 43800.0, k


def _sweep_parts(k: int) -> GeneratorParts:
    return generator_parts_of(k, _sweep_inputs(k))


@pytest.mark.parametrize("parity", [1, 2, 3, 4])
def test_the_four_loss_figure_chains_agree_with_the_numpy_path(
    parity: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    g, k = _sweep_stack(parity)
    parts = _sweep_parts(parity)
    group, sectors = parts.group_loss * 43800.0, parts.sector_loss * 43800.0
    last = g.shape[-1] - 1
    jobs = [
        EntryJob(g, (0, last), k + 1),
        EntryJob(group_lost_stack(g, k), (0, k + 1), k + 1),
        EntryJob(sectors_lost_generator(g, group, sectors), (0, last), k + 1),
        EntryJob(
            going_on_matrix(g, group, sectors, k), (0, last), k + 1, REWARD_COLUMNS, whole_row=True
        ),
    ]
    compiled = expm_entries(jobs)
    monkeypatch.setattr(expm_compiled, "KERNEL", None)
    numpy_path = expm_entries(jobs)
    for got, expected in zip(compiled, numpy_path, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-13, atol=0)


def test_each_lane_is_computed_alone() -> None:
    """Any thread count, chunk, neighbours or stack size gives the same bits."""
    g, k = _sweep_stack(3)
    job = RowJob(g, 0, k + 1)
    one_thread = expm_rows([job], threads=1)[0]
    for threads in (2, 3):
        assert np.array_equal(expm_rows([job], threads=threads)[0], one_thread)
    # reversed order: every matrix gets other neighbours in its group of eight
    reversed_rows = expm_rows([RowJob(g[::-1].copy(), 0, k + 1)], threads=1)[0]
    assert np.array_equal(reversed_rows[::-1], one_thread)
    # a group of one (padded with copies of itself), and the one-matrix entry point
    for index in (0, 5, len(g) - 1):
        alone = expm_rows([RowJob(g[index : index + 1].copy(), 0, k + 1)], threads=1)[0][0]
        assert np.array_equal(alone, one_thread[index])
        assert np.array_equal(expm_row_one(g[index], 0, k + 1), one_thread[index])


def test_a_group_mixing_squaring_counts_matches_each_alone() -> None:
    """Missions from an hour to 20 years in one group of eight: 0 to 14 squarings."""
    hours = np.array([1.0, 3.0, 40.0, 900.0, 8760.0, 43800.0, 175200.0, 2.0])
    inputs = ChainInputs.of(14.0, 2e-6, 1e-5, 12.0, 168.0, hours)
    g = generator_of(2, inputs) * hours[:, None, None]
    together = expm_rows([RowJob(g, 0, 3)], threads=1)[0]
    for index in range(len(hours)):
        assert np.array_equal(expm_row_one(g[index], 0, 3), together[index])
        expected = reference.p_loss(2, 14, 2e-6, 1e-5, 12.0, 168.0, float(hours[index]))
        assert float(reference.relative_error(together[index, -1], expected)) < 1e-13


def test_rows_are_probabilities_and_rewards_are_integrals() -> None:
    """Row sums: 1 for a chain with an absorbing state; the reward column left out of it."""
    g, k = _sweep_stack(2)
    rows = expm_rows([RowJob(g, 0, k + 1)])[0]
    np.testing.assert_allclose(rows.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    parts = _sweep_parts(2)
    events = going_on_matrix(g, parts.group_loss * 43800.0, parts.sector_loss * 43800.0, k)
    with_reward = expm_rows([RowJob(events, 0, k + 1, reward_columns=REWARD_COLUMNS)])[0]
    np.testing.assert_allclose(with_reward[:, :-4].sum(axis=1), 1.0, rtol=0, atol=1e-14)


@pytest.mark.parametrize("parity", [2, 5])
def test_reward_columns_gathered_from_extra_are_the_matrix_they_name(parity: int) -> None:
    """The going-on job (rewards read through the gather, moves on the job's own states,
    no copy) = the same job made to take the copy path = going_on_matrix built in NumPy.

    Parity 5 has a compiled size of its own (15 = 11 states + 4 rewards); so does 2 (9)."""
    parts = _sweep_parts(parity)
    hours = np.linspace(10.0, 2e5, parts.q.shape[0])
    extra = going_on_extra(parts, parity, hours)
    job = going_on_job(RowJob(parts.q, 0, parity + 1), parity, hours, extra)
    loss = parts.q.shape[-1] - 1
    # a move that changes nothing the job keeps (the loss column is not gathered) but that
    # the interleaved load cannot apply: the kernel copies each matrix
    copied = dataclasses.replace(job, moves=(*job.moves, (0, loss, loss, MOVE)))
    fast, slow = expm_rows([job, copied])
    np.testing.assert_allclose(fast, slow, rtol=1e-15, atol=0)
    t = hours[:, None]
    matrix = going_on_matrix(
        parts.q * t[..., None], parts.group_loss * t, parts.sector_loss * t, parity
    )
    built = expm_rows([RowJob(matrix, 0, parity + 1, REWARD_COLUMNS)])[0]
    np.testing.assert_allclose(fast, built, rtol=1e-13, atol=1e-300)
    assert fast.shape[-1] == 2 * parity + 1 + REWARD_COLUMNS


def test_a_reward_column_of_extra_at_a_transient_place_is_refused() -> None:
    parts = _sweep_parts(1)
    hours = np.full(parts.q.shape[0], 43800.0)
    extra = going_on_extra(parts, 1, hours)
    size = parts.q.shape[-1]
    job = RowJob(parts.q, 0, 2, 1, gather=(0, size, 1, size + 1), scale=hours, extra=extra)
    with pytest.raises(IndexError, match="gathered state"):
        expm_rows([job])


def test_bad_matrices_are_refused_as_by_the_numpy_path() -> None:
    g, k = _sweep_stack(1)
    bad = g[:3].copy()
    bad[1, 0, 1] = -1e-3
    with pytest.raises(ValueError, match="non-negative off-diagonal"):
        expm_metzler(bad, entry=(0, 3), lead_power=2, generator=True)
    nan = g[:3].copy()
    nan[2, 1, 0] = np.nan
    with pytest.raises(ValueError, match="non-negative off-diagonal"):
        expm_metzler(nan, entry=(0, 3), lead_power=2, generator=True)
    parts = _sweep_parts(1)
    group, sectors = parts.group_loss[:3] * 43800.0, parts.sector_loss[:3] * 43800.0
    events = going_on_matrix(g[:3], group, sectors, k)
    events[0, -1, 0] = 1.0
    with pytest.raises(ValueError, match="reward rows"):
        expm_rows([RowJob(events, 0, 2, reward_columns=REWARD_COLUMNS)])


def test_a_chain_without_an_absorbing_state_is_all_transient() -> None:
    """A two-state repairable drive (up/down): every state transient for the kernel."""
    fail, repair, hours = 1e-3, 0.1, 50.0
    g = np.array([[[0.0, fail * hours], [repair * hours, 0.0]]])
    row = expm_rows([RowJob(g, 0, 1)])[0][0]
    total = fail + repair
    p_down = fail / total * -np.expm1(-total * hours)
    np.testing.assert_allclose(row, [1 - p_down, p_down], rtol=1e-14)


def _edited(g: np.ndarray, extra: np.ndarray, moves: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The moves applied in NumPy, the way RowJob.moves defines them (independent of C)."""
    out = g.copy()
    size = g.shape[-1]
    for row, source, target, mode in moves:
        inside = source < size
        value = out[:, row, source].copy() if inside else extra[:, row, source - size]
        out[:, row, target] = value if mode == ASSIGN else out[:, row, target] + value
        if mode == MOVE and inside:
            out[:, row, source] = 0.0
    return out


@pytest.mark.parametrize("gathered", [False, True])
def test_moves_gathers_and_missions_are_the_edits_they_name(gathered: bool) -> None:
    """Edits as data (on the interleaved load, or on a copy when gathered) = edits in NumPy."""
    q, k = _sweep_stack(2)  # generators per hour x mission: taken here as rates per hour
    q = q / 43800.0
    rng = np.random.default_rng(5)
    extra = rng.uniform(0, 1e-4, size=(*q.shape[:-1], 2))
    size = q.shape[-1]
    moves = [(1, size - 1, 0, MOVE), (2, size, size - 1, ASSIGN), (3, size + 1, 1, ADD)]
    moves.append((0, 1, 2, ADD))
    hours = rng.uniform(1e3, 1e5, size=q.shape[0])
    states = (0, 1, 2, 3, size - 1) if gathered else tuple(range(size))
    job = RowJob(q, 0, k + 1, moves=tuple(moves), gather=states if gathered else None,
                 scale=hours, extra=extra)  # fmt: skip
    got = expm_rows([job])[0]
    edited = _edited(q, extra, moves)[:, states][:, :, states] * hours[:, None, None]
    expected = expm_rows([RowJob(edited, 0, k + 1)])[0]
    np.testing.assert_allclose(got, expected, rtol=1e-14, atol=1e-300)
    for index in (0, 17):  # and the independent reference: mpmath's exponential
        matrix = edited[index].copy()
        np.fill_diagonal(matrix, 0.0)
        np.fill_diagonal(matrix, -matrix.sum(axis=1))
        with mpmath.workdps(40):
            row = mpmath.expm(mpmath.matrix(matrix.tolist()))
        for column in range(len(states)):
            assert float(reference.relative_error(got[index, column], row[0, column])) < 1e-13


def test_a_mission_in_pieces_is_the_mission_whole() -> None:
    """start exp(G1) exp(G2) from a starting distribution = exp(G (t1 + t2)) for one chain;
    and with rates that change between the pieces, against mpmath's product of the two."""
    q, k = _sweep_stack(3)
    q = q[:40] / 43800.0
    first = expm_rows([RowJob(q, 0, k + 1, scale=np.full(40, 15000.0))])[0]
    both = expm_rows([RowJob(q, 0, k + 1, scale=np.full(40, 15000.0), start=first)])[0]
    whole = expm_rows([RowJob(q, 0, k + 1, scale=np.full(40, 30000.0))])[0]
    np.testing.assert_allclose(both, whole, rtol=1e-13, atol=1e-300)
    older = q * 3.0  # every rate tripled in the second piece (the diagonal is rebuilt)
    aged = expm_rows([RowJob(older, 0, k + 1, scale=np.full(40, 15000.0), start=first)])[0]
    with mpmath.workdps(40):
        for index in (0, 39):
            pieces = []
            for rates in (q[index], older[index]):
                matrix = rates * 15000.0
                np.fill_diagonal(matrix, 0.0)
                np.fill_diagonal(matrix, -matrix.sum(axis=1))
                pieces.append(mpmath.expm(mpmath.matrix(matrix.tolist())))
            row = (pieces[0] * pieces[1])[0, :]
            for column in range(q.shape[-1]):
                error = reference.relative_error(aged[index, column], row[column])
                assert float(error) < 1e-13


@pytest.mark.parametrize("parity", [1, 3])
def test_correlated_pools_agree_with_the_numpy_path(
    parity: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel's edits of the correlated chain (losses by kind, shocks past parity from
    states with a defect, a pool's sigma) = the NumPy path's copies, for every figure."""
    from planner.core.markov.loss_figures import chain_figures

    rng = np.random.default_rng(parity)
    inputs = _random_inputs(rng, parity, 300, _correlated_pool(rng, 300))
    compiled = chain_figures(parity, inputs)
    monkeypatch.setattr(expm_compiled, "KERNEL", None)
    numpy_path = chain_figures(parity, inputs)
    for name in (
        "p_loss",
        "p_group_lost",
        "p_sectors_lost",
        "expected_sector_loss_events",
        "expected_group_losses",
        "degraded_hours_per_year",
        "critical_hours_per_year",
    ):
        np.testing.assert_allclose(
            getattr(compiled, name), getattr(numpy_path, name), rtol=1e-13, atol=0, err_msg=name
        )


def _kinds_of_chains() -> Iterator[tuple[int, ChainInputs]]:
    """Every kind of chain the sweep runs: parity 1-5, one stream or all, pools, correlated."""
    rng = np.random.default_rng(7)
    count = 40
    for parity in range(1, 6):
        for options in (
            {},
            {"rebuild_streams": None},
            {"defect_stripe_share": rng.uniform(0.05, 1.0, count)},
            _correlated_pool(rng, count),
        ):
            yield parity, _random_inputs(rng, parity, count, options)


def _correlated_pool(rng: np.random.Generator, count: int) -> dict[str, Any]:
    """A pool's sigma, the degraded multiplier and shocks, each drawn per group."""
    return {
        "defect_stripe_share": rng.uniform(0.05, 1.0, count),
        "degraded_multiplier": rng.uniform(1, 4, count),
        "shocks_per_hour": rng.uniform(0, 0.3, count) / 8760,
        "shock_drive_probability": rng.uniform(0, 0.2, count),
    }


def _random_inputs(
    rng: np.random.Generator, parity: int, count: int, options: dict[str, Any]
) -> ChainInputs:
    """``count`` random groups of ``parity`` (drives, rates, missions), with ``options``."""
    return ChainInputs.of(
        rng.integers(parity + 2, 40, count).astype(float),
        rng.uniform(0.005, 0.1, count) / 8760,
        10 ** rng.uniform(-7, -4, count),
        rng.uniform(6, 48, count),
        rng.uniform(48, 720, count),
        rng.uniform(8760, 87600, count),
        **options,
    )


def test_matrices_built_from_transitions_are_the_generator_stack_bit_for_bit() -> None:
    """The kernel building each matrix from its transitions' rates (TransitionStack) gives
    the same bits, for all four chains, as reading the dense generator stack Q: the cells
    hold the same sums (transitions sharing a cell added in the same order) and neither
    path reads the diagonal."""
    from planner.core.markov.loss_figures import compiled_jobs
    from planner.core.markov.transition_stack import transition_stack_of

    for parity, inputs in _kinds_of_chains():
        dense = expm_rows(
            compiled_jobs(generator_parts_of(parity, inputs), parity, inputs.mission_hours)
        )
        stack = transition_stack_of(parity, inputs)
        built = expm_rows(compiled_jobs(stack, parity, inputs.mission_hours))
        for got, expected in zip(built, dense, strict=True):
            np.testing.assert_array_equal(got, expected)
        # the rates fill Q's off-diagonal cells exactly (summed where transitions share one)
        q = generator_of(parity, inputs).reshape(len(inputs.drives), -1)
        filled = np.zeros_like(q)
        for t, cell in enumerate(stack.cells.tolist()):
            filled[:, cell] += stack.values[:, t]
        off = np.ones(stack.size * stack.size, bool)
        off[:: stack.size + 1] = False
        np.testing.assert_array_equal(filled[:, off], q[:, off])


def test_bad_transition_cells_are_refused() -> None:
    from planner.core.markov.transition_stack import transition_stack_of

    inputs = _sweep_inputs(1)
    stack = transition_stack_of(1, inputs)
    hours = inputs.mission_hours
    for cells in (
        stack.cells[:-1],  # one rate without a cell
        np.where(np.arange(len(stack.cells)) == 0, 0, stack.cells),  # a diagonal cell
        np.where(np.arange(len(stack.cells)) == 0, stack.size**2, stack.cells),  # outside
    ):
        job = dataclasses.replace(stack.base_job(2), cells=cells, scale=hours)
        with pytest.raises(ValueError, match="do not match"):
            expm_rows([job])
    negative = dataclasses.replace(stack.base_job(2), g=-stack.values, scale=hours)
    with pytest.raises(ValueError, match="non-negative off-diagonal"):
        expm_rows([negative])
