"""The compiled kernel of the exponential: rows of ``exp(G)`` for stacks of generators.

:mod:`planner.core.markov._metzler` (C, built with planner) runs the method of
:mod:`planner.core.markov.expm` (shift, non-negative Taylor, square, rebuild the diagonal;
the accuracy argument is that module's) with the matrices interleaved so that each scalar
step is one vector instruction over eight of them, and with the rows of the absorbing or
reward states, which are zero, left out of the cubic work. A sweep of 23,000 layouts needs
92,000 exponentials of 3x3 to 10x10 matrices; NumPy's stacked products spent most of
their time on per-call and per-matrix overhead there (``benchmarks/bench_sweep_vs_scipy.py``).

The kernel is optional: where it was not built (no C compiler when planner was installed)
:data:`KERNEL` is None and every caller takes the NumPy path of :mod:`.expm`, which gives
the same numbers to a few ulps. Set ``PLANNER_EXPM=numpy`` in the environment to force
that path (for comparisons).

Every lane is computed alone by the same instructions (the last group of eight is padded
with a copy), so a result never depends on the chunking or the number of threads. It may
differ in the last bits between machines: the kernel uses fused multiply-adds where the
processor has them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import ModuleType

import numpy as np
import numpy.typing as npt

from planner.core.markov.pool import TaskStream
from planner.core.markov.taylor import (
    CONSERVE_EVERY,
    THETA_MAX,
    taylor_coefficients,
    taylor_degree,
)

FloatArray = npt.NDArray[np.float64]

MOVE, ADD, ASSIGN = 0, 1, 2
"""The modes of a :attr:`RowJob.moves` edit: move the entry, add it (keep it), write it over."""

__all__ = [
    "ADD",
    "ASSIGN",
    "KERNEL",
    "LANES_PER_TASK",
    "MOVE",
    "RowJob",
    "add_rows",
    "expm_row_one",
    "expm_rows",
    "kernel_enabled",
]


def _load_kernel() -> ModuleType | None:
    if os.environ.get("PLANNER_EXPM", "").strip().lower() == "numpy":
        return None
    try:
        from planner.core.markov import _metzler  # type: ignore[attr-defined]
    except ImportError:  # not built: the NumPy path serves
        return None
    return _metzler  # type: ignore[no-any-return]


KERNEL: ModuleType | None = _load_kernel()
"""The compiled module, or None where it was not built or ``PLANNER_EXPM=numpy``."""

LANES_PER_TASK = 512
"""Matrices per task on the thread pool: large enough that a call's fixed cost (a few
microseconds) is lost in it, small enough that two threads end together."""


def kernel_enabled() -> bool:
    """Whether the compiled kernel serves the exponentials (see the module docstring)."""
    return KERNEL is not None


@dataclass(frozen=True)
class RowJob:
    """One stack for :func:`expm_rows`: generators times a time, and the row wanted.

    Attributes:
        g: ``(..., m, m)`` float64, off-diagonal entries >= 0 (``Q T``); its diagonal is
            not read: each state's exit rate is its row's off-diagonal sum (the reward
            columns excluded), so the model conserves probability exactly.
        row: the state the chains start in (0: pristine).
        lead_power: length of the shortest path from ``row`` to the entries wanted (the
            Taylor degree counts from it; see :func:`~planner.core.markov.taylor.taylor_degree`).
        reward_columns: the last columns are Van Loan rewards (their rows zero), not states.
        owned: ``g`` is a fresh C-contiguous float64 array the kernel may read in place.
        moves: edits of each matrix before use, ``(row, from, to, mode)`` in indices of
            ``g``'s states: the entry ``(row, from)`` (or, for ``from >= m``, the column
            ``from - m`` of ``extra``'s row) is added to ``(row, to)`` and cleared
            (:data:`MOVE`), added and kept (:data:`ADD`), or written over ``(row, to)``
            (:data:`ASSIGN`). The diagonal needs no edit: it is always rebuilt.
        gather: the states of ``g`` the chain keeps, in order (its last ones the absorbing
            or reward states); ``row`` counts in them. Default: all.
        scale: a factor per matrix (``g``'s leading shape), e.g. the missions in hours
            when ``g`` holds generators per hour.
        extra: columns beside each matrix (``(..., m, columns)``) that moves may read, e.g.
            each state's loss rate by kind.
        start: a starting distribution per matrix (``(..., m)``, over the chain's states,
            after ``gather``): the result is ``start exp(G)`` instead of row ``row``, e.g.
            to carry a chain through missions of several pieces with their own rates.
        cells: when given, ``g`` holds each matrix's transition rates (``(..., T)``) and
            transition ``t`` goes to the flat cell ``cells[t]`` (``source * size +
            target``, off the diagonal) of a ``size x size`` matrix, transitions sharing a
            cell added in order: the kernel builds each matrix itself, so no stack of
            generators is written (:class:`~planner.core.markov.generator.TransitionStack`).
        size: the matrices' size with ``cells``.
    """

    g: FloatArray
    row: int
    lead_power: int
    reward_columns: int = 0
    owned: bool = False
    moves: tuple[tuple[int, int, int, int], ...] = ()
    gather: tuple[int, ...] | None = None
    scale: FloatArray | None = None
    extra: FloatArray | None = None
    start: FloatArray | None = None
    cells: npt.NDArray[np.int64] | None = None
    size: int = 0

    @property
    def matrix_size(self) -> int:
        """The size of each matrix (before ``gather``)."""
        return self.size if self.cells is not None else self.g.shape[-1]

    @property
    def stack_shape(self) -> tuple[int, ...]:
        """The leading shape of ``g``: one matrix per element."""
        return self.g.shape[:-1] if self.cells is not None else self.g.shape[:-2]


@dataclass(frozen=True)
class _Ready:
    g: FloatArray
    out: FloatArray
    specials: int
    degree: int
    coefficients: FloatArray
    shape: tuple[int, ...]
    gather: npt.NDArray[np.int64] | None
    moves: npt.NDArray[np.int64] | None
    scale: FloatArray | None
    extra: FloatArray | None
    start: FloatArray | None
    cells: npt.NDArray[np.int64] | None
    size: int


def _leaves(job: RowJob, g: FloatArray, states: tuple[int, ...]) -> bool:
    """Whether the last of ``states`` moves to another of them in some matrix of ``g``."""
    if job.cells is None:
        return bool(g[:, states[-1], list(states[:-1])].any())
    size = job.size
    sources, targets = np.divmod(job.cells, size)
    others = set(states[:-1])  # (not np.isin: it imports numpy.ma)
    moving = (sources == states[-1]) & np.array([t in others for t in targets.tolist()], bool)
    return bool(g[:, np.flatnonzero(moving)].any())


def _ready(job: RowJob) -> _Ready:
    size, shape = job.matrix_size, job.stack_shape
    flat = (
        job.g.reshape(-1, job.g.shape[-1])
        if job.cells is not None
        else job.g.reshape(-1, size, size)
    )
    usable = job.owned and flat.dtype == np.float64 and flat.flags.c_contiguous
    g = flat if usable else np.ascontiguousarray(flat, dtype=np.float64)
    states = tuple(range(size)) if job.gather is None else job.gather
    specials = job.reward_columns
    if not specials and g.shape[0]:
        # the last state is absorbing (its row zero) in every chain of the engine; where it
        # is not, every state is transient for the kernel
        specials = 0 if _leaves(job, g, states) else 1
    degree, coefficients = _coefficients(job.lead_power)
    out = np.empty((g.shape[0], len(states)))
    gather = None if job.gather is None else np.array(job.gather, dtype=np.int64)
    moves = np.array(job.moves, dtype=np.int64).reshape(-1, 4) if job.moves else None
    scale = None
    if job.scale is not None:
        scale = np.ascontiguousarray(np.broadcast_to(job.scale, shape), np.float64)
        scale = scale.reshape(-1)
    extra = None
    if job.extra is not None:
        extra = np.ascontiguousarray(job.extra, dtype=np.float64).reshape(g.shape[0], size, -1)
    start = None
    if job.start is not None:
        start = np.ascontiguousarray(
            np.broadcast_to(job.start, (*shape, len(states))), dtype=np.float64
        ).reshape(g.shape[0], len(states))
    return _Ready(
        g,
        out,
        min(specials, len(states) - 1),
        degree,
        coefficients,
        shape,
        gather,
        moves,
        scale,
        extra,
        start,
        None if job.cells is None else np.ascontiguousarray(job.cells, dtype=np.int64),
        size,
    )


def expm_rows(jobs: list[RowJob], *, threads: int | None = None) -> list[FloatArray]:
    """Row ``job.row`` of ``exp(job.g)`` for every matrix of every job (``(..., m)`` each).

    All jobs run as one pool of tasks (the largest matrices first), so both cores stay busy
    to the end. Raises ValueError for a negative off-diagonal entry, like
    :func:`~planner.core.markov.expm.expm_metzler`. Needs :data:`KERNEL`.
    """
    with TaskStream(threads) as stream:
        results = add_rows(stream, jobs)
    return results()


def add_rows(stream: TaskStream, jobs: list[RowJob]) -> Callable[[], list[FloatArray]]:
    """Queue ``jobs`` on ``stream`` (:func:`expm_rows`'s tasks, the largest first).

    Returns the function that gives the rows once the stream has finished: the caller may
    prepare the next jobs while these run.
    """
    if KERNEL is None:
        raise RuntimeError("the compiled kernel is not available (see kernel_enabled())")
    ready = [_ready(job) for job in jobs]
    tasks = []
    for job, r in sorted(zip(jobs, ready, strict=True), key=lambda pair: -pair[1].out.shape[-1]):
        count = r.g.shape[0]
        for start in range(0, count, LANES_PER_TASK):
            lanes = np.arange(start, min(count, start + LANES_PER_TASK), dtype=np.int64)
            tasks.append(
                partial(
                    KERNEL.expm_rows,
                    r.g,
                    r.out,
                    lanes,
                    job.row,
                    r.specials,
                    1 if job.reward_columns else 0,
                    r.degree,
                    THETA_MAX,
                    CONSERVE_EVERY,
                    r.coefficients,
                    r.gather,
                    r.moves,
                    r.scale,
                    r.extra,
                    r.start,
                    r.cells,
                    r.size,
                )
            )
    stream.add(tasks)
    return lambda: [r.out.reshape(*r.shape, r.out.shape[-1]) for r in ready]


_ONE_LANE = np.zeros(1, dtype=np.int64)
_ONE_LANE.setflags(write=False)


def _coefficients(lead_power: int) -> tuple[int, FloatArray]:
    degree = taylor_degree(lead_power)
    return degree, _contiguous_coefficients(degree)


def _contiguous_coefficients(degree: int) -> FloatArray:
    cached = _COEFFICIENTS.get(degree)
    if cached is None:
        cached = _COEFFICIENTS[degree] = np.ascontiguousarray(taylor_coefficients(degree)[1])
    return cached


_COEFFICIENTS: dict[int, FloatArray] = {}


def expm_row_one(g: FloatArray, row: int, lead_power: int, reward_columns: int = 0) -> FloatArray:
    """Row ``row`` of ``exp(g)`` for one matrix ``g`` (``m x m``): :func:`expm_rows` for one.

    The last state must be absorbing (its row zero) or, with ``reward_columns``, a reward
    column: the engine's chains all are. A few microseconds of call overhead, no threads.
    """
    if KERNEL is None:
        raise RuntimeError("the compiled kernel is not available (see kernel_enabled())")
    g = np.ascontiguousarray(g, dtype=np.float64)
    size = g.shape[-1]
    degree, coefficients = _coefficients(lead_power)
    out = np.empty((1, size))
    KERNEL.expm_rows(
        g,
        out,
        _ONE_LANE,
        row,
        max(1, reward_columns),
        1 if reward_columns else 0,
        degree,
        THETA_MAX,
        CONSERVE_EVERY,
        coefficients,
        None,
        None,
        None,
        None,
        None,
    )
    result: FloatArray = out[0]
    return result
