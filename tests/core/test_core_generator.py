"""The one generator builder: a single layout and a stack give the same Q, bit for bit.

:func:`planner.core.markov.generator.generator_matrix` skips the broadcasting and array checks of
:func:`planner.core.markov.generator.generator_stack` (the single-layout speed path), but both
write Q through the same cached transition structure. These tests hold the two to exact
equality and both to the independent mpmath chain of ``tests/reference.py``.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from planner.core.markov.chain import Event
from planner.core.markov.generator import generator_matrix, generator_stack
from planner.core.markov.rates import Rates
from tests import reference

STREAMS = (1, 2, None)


def _random_rates(rng: np.random.Generator, streams: int | None) -> Rates:
    return Rates(
        op_failures_per_hour=float(rng.uniform(1e-8, 1e-4)),
        latent_defects_per_hour=float(rng.choice([0.0, rng.uniform(1e-9, 1e-3)])),
        rebuild_hours=float(rng.uniform(0.5, 300.0)),
        scrub_hours=float(rng.uniform(1.0, 2000.0)),
        rebuild_streams=streams,
    )


@pytest.mark.parametrize("parity", range(1, 9))
@pytest.mark.parametrize("streams", STREAMS)
def test_single_layout_equals_its_row_of_the_stack_exactly(
    parity: int, streams: int | None
) -> None:
    rng = np.random.default_rng(100 * parity + (streams or 0))
    cases = [(int(rng.integers(parity + 1, parity + 40)), _random_rates(rng, streams))]
    cases += [(parity + 1, _random_rates(rng, streams)) for _ in range(3)]
    drives = np.array([n for n, _ in cases], dtype=float)
    stack = generator_stack(
        parity,
        drives,
        [r.op_failures_per_hour for _, r in cases],
        [r.latent_defects_per_hour for _, r in cases],
        [r.rebuild_hours for _, r in cases],
        [r.scrub_hours for _, r in cases],
        rebuild_streams=streams,
    )
    for row, (n, rates) in enumerate(cases):
        single = generator_matrix(parity, n, rates)
        assert single.shape == stack[row].shape
        assert np.array_equal(single, stack[row])


@pytest.mark.parametrize("parity", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("streams", STREAMS)
def test_single_layout_matches_the_mpmath_chain(parity: int, streams: int | None) -> None:
    rates = Rates(3.1e-6, 7.7e-5, 17.0, 211.0, rebuild_streams=streams)
    drives = parity + 9
    q = generator_matrix(parity, drives, rates)
    with mpmath.workdps(reference.DPS):
        at_once = parity if streams is None else streams
        expected = reference.generator(
            parity, drives, 3.1e-6, 7.7e-5, 1 / mpmath.mpf(17), 1 / mpmath.mpf(211), at_once
        )
        for i in range(q.shape[0]):
            for j in range(q.shape[1]):
                exact = expected[i, j]  # type: ignore[index]
                if exact == 0:
                    assert q[i, j] == 0.0
                else:
                    assert abs(q[i, j] - exact) <= 4e-16 * abs(exact), (i, j)


@pytest.mark.parametrize("parity", [1, 2, 4])
def test_event_parts_sum_to_the_generator(parity: int) -> None:
    """Q is linear in each rate: the four one-event generators add up to Q."""
    drives = np.arange(parity + 1, parity + 12, dtype=float)
    inputs = (drives, 2e-6, 1e-4, 12.0, 168.0)
    parts = [generator_stack(parity, *inputs, events=(event,)) for event in Event]
    np.testing.assert_allclose(
        sum(parts), generator_stack(parity, *inputs), rtol=1e-15, atol=1e-300
    )
    # each part holds only its own event's moves: none is all zero, none repeats another
    assert all(np.any(part != 0) for part in parts)


def test_single_layout_rejects_what_the_stack_rejects() -> None:
    rates = Rates(1e-6, 1e-5, 12.0, 168.0)
    with pytest.raises(ValueError, match="cannot hold"):
        generator_matrix(3, 3, rates)
    with pytest.raises(ValueError, match="whole drives"):
        generator_matrix(2, 7.5, rates)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="parity"):
        generator_matrix(0, 5, rates)
