"""The kernel's task stream (planner.core.markov.pool.TaskStream) and the pipelined sweep.

The stream runs tasks on pool threads while the caller prepares more; what it must not do is
lose a task, run one twice, swallow an error or leave a pool thread waiting. And the sweep's
figures, built a part at a time while the kernel runs the parts before, must be the same
bits as each part computed alone.
"""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from planner.core.design.risks import stacked_figures
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.loss_figures import chain_figures
from planner.core.markov.pool import TaskStream


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_every_task_runs_once_in_batches(threads: int) -> None:
    ran: list[int] = []
    lock = threading.Lock()

    def task(index: int) -> None:
        with lock:
            ran.append(index)

    with TaskStream(threads) as stream:
        for batch in range(5):
            stream.add([lambda i=batch * 10 + j: task(i) for j in range(10)])
    assert sorted(ran) == list(range(50))


def test_an_error_is_raised_by_finish_after_the_others_ran() -> None:
    ran = []

    def fail() -> None:
        raise ValueError("a negative rate")

    stream = TaskStream(2)
    stream.add([lambda: ran.append(1), fail, lambda: ran.append(2)])
    with pytest.raises(ValueError, match="a negative rate"):
        stream.finish()
    assert sorted(ran) == [1, 2]


def test_a_caller_that_fails_lets_the_pool_threads_go() -> None:
    started = threading.Event()

    def slow() -> None:
        started.set()

    def caller() -> None:
        with TaskStream(3) as stream:
            stream.add([slow])
            started.wait(5)
            raise KeyError("the caller's own error")

    with pytest.raises(KeyError):
        caller()
    # a new stream gets the pool's threads: none is still waiting on the old one
    done = []
    with TaskStream(3) as again:
        again.add([lambda: done.append(1)] * 6)
    assert done == [1] * 6


@pytest.mark.parametrize("small_queue", [False, True])
def test_the_pipelined_sweep_is_each_part_alone(
    small_queue: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mixed parities and rebuild streams; with a small queue and small blocks, every block
    its own stack and the queue emptied after each."""
    if small_queue:
        monkeypatch.setattr("planner.core.design.risks.IN_FLIGHT_BYTES", 1)
        monkeypatch.setattr("planner.core.design.risks.STACK_BYTES", 1)
    rng = np.random.default_rng(11)
    count = 3000
    parity = rng.integers(1, 5, size=count)
    drives = parity + rng.integers(2, 40, size=count)
    streams = rng.integers(0, 3, size=count)
    inputs = ChainInputs.of(
        drives.astype(float),
        rng.uniform(0.005, 0.05, count) / 8760,
        10 ** rng.uniform(-8, -4, count),
        rng.uniform(4, 48, count),
        rng.uniform(24, 720, count),
        rng.uniform(8760, 87600, count),
    )
    together = stacked_figures(parity, streams, inputs)
    for k in range(1, 5):
        for code in range(3):
            pick = np.flatnonzero((parity == k) & (streams == code))
            part = inputs.take(pick)
            alone = chain_figures(k, replace(part, rebuild_streams=code or None))
            assert np.array_equal(together.p_loss[pick], alone.p_loss)
            assert np.array_equal(together.p_group_lost[pick], alone.p_group_lost)
            assert np.array_equal(together.p_sectors_lost[pick], alone.p_sectors_lost)
            assert np.array_equal(
                together.expected_sector_loss_events[pick], alone.expected_sector_loss_events
            )
