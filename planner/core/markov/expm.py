"""The exponential of a Metzler matrix without cancellation: ``exp(Q T)`` of a CTMC.

:func:`expm_metzler` computes ``exp(G)`` for a stack of matrices whose off-diagonal
entries are non-negative (a generator ``Q`` times a mission ``T``), so that the
probability of data loss, the (pristine, loss) entry, keeps its relative accuracy at
1e-30 (NS3574 "Probability of data loss" asks for that entry). :func:`expm_entries` takes
several such stacks at once (the loss figures of one layout are four chains), and
:func:`planner.core.markov.expm_one.expm_entry` is the same method for one small matrix
with few NumPy calls.

Method: "shift, non-negative Taylor, square, conserve". Q is a generator (off-diagonal
rates >= 0, rows summing to 0), so with ``c`` the largest total exit rate,
``X = (Q + c I) h`` is entrywise non-negative and ``exp(Q h) = exp(-c h) sum_j X^j / j!``
(uniformization over one step of ``h = T / 2^s`` hours, ``c h <= 1``). The series is
summed by Paterson-Stockmeyer with positive coefficients and then squared ``s`` times:
``exp(Q T) = exp(Q h)^(2^s)``.

Accuracy argument:

* No cancellation: every operation adds or multiplies non-negative numbers, so each entry,
  the 1e-30 probability of loss included, is computed to a relative accuracy of a few ulps
  per operation; the norm-wise error bound of scaling and squaring (errors relative
  to the norm, not the entry) does not apply.
* No ``2^s`` growth: a matrix squared ``2^s`` times amplifies any error in its "mass" by
  ``2^s ~ c T`` (1e4 for a 5-year mission and 12 h rebuilds, i.e. 1e-12 relative). The
  error hides in diagonal entries near 1 (slowly left states, F_ii = 1 - a_i) and in the
  shift itself. So after the Taylor step and after every squaring each such diagonal entry
  is rebuilt from its row's off-diagonal sum, ``1 - sum_{j != i} F_ij`` (rows of exp(Q t)
  sum to 1), with a fresh half-ulp error instead of an inherited one; the errors then grow
  with ``s``, not ``2^s``. Measured against 50-digit mpmath: ~1e-15 relative where
  scipy.linalg.expm is at ~1e-13 to 1e-12 (and 1e-7 for missions of an hour, where its
  Padé step cancels); at most 1e-14 for the largest groups (k = 4, 55 drives, 12 squarings).
* Truncation: the Taylor degree keeps the dropped tail below 1e-17 of each entry (a tenth
  of the unit roundoff), counting from the power ``k + 1`` at which the loss entry's
  series starts (the shortest path to loss has k + 1 steps).

Speed: a stack is cut into chunks of :data:`CHUNK` matrices (the temporaries stay in
cache) and the chunks run on a pool of threads (NumPy's matmul releases the GIL), at most
one per CPU. Every matrix is computed by the same operations whatever the chunk or the
thread, so the result does not depend on the number of threads, bit for bit. The loss or
reward column takes part in every product although ``[[F, g], [0, 1]]`` squares to
``[[F^2, F g + g], [0, 1]]``: NumPy's stacked product costs the same for m and m + 1 at
these sizes (3 to 10: 35 to 100 ns a matrix, measured), so the split would only add calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from planner.core.markov.expm_chunk import chunk_workspace, expm_chunk
from planner.core.markov.expm_compiled import RowJob, expm_rows, kernel_enabled
from planner.core.markov.pool import run_tasks
from planner.core.markov.taylor import (
    CONSERVE_EVERY,
    THETA_MAX,
    mass_mask,
    squarings,
    taylor_degree,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

CHUNK = 256
"""Cases per chunk: keeps the temporaries small enough to stay in cache (about 2x faster)."""


@dataclass(frozen=True)
class EntryJob:
    """One stack for :func:`expm_entries`: the matrices and the entry wanted of each.

    Attributes:
        g: the stack ``(..., m, m)``, generators times a time (see :func:`expm_metzler`).
        entry: ``(row, column)`` of each exponential to return.
        lead_power: length of the shortest path to ``entry`` (see :func:`expm_metzler`).
        reward_columns: the last columns are Van Loan rewards (see :func:`expm_metzler`).
        owned: see the field.
        whole_row: return the entry's whole row (``(..., m)``), e.g. every reward column of
            an augmented generator; ``entry``'s column is then only a name.
    """

    g: FloatArray
    entry: tuple[int, int]
    lead_power: int
    reward_columns: int = 0
    owned: bool = False
    """``g`` is a fresh array the exponential may overwrite (saves a copy of the stack)."""
    whole_row: bool = False


@dataclass(frozen=True)
class _Prepared:
    """A stack shifted to non-negative matrices, with its squarings, ready for chunks."""

    x: FloatArray
    shift: FloatArray
    steps: IntArray
    degree: int
    generator: bool
    entry: tuple[int, int] | None
    offdiagonal: FloatArray
    shape: tuple[int, ...]
    out: FloatArray
    whole_row: bool = False

    def chunks(self) -> list[tuple[_Prepared, npt.NDArray[np.intp]]]:
        """The chunks of this stack, most squarings first (each chunk a run of the order)."""
        # Most squarings first: within a chunk, the cases still squaring are a prefix.
        order = np.argsort(-self.steps, kind="stable")
        return [(self, order[start : start + CHUNK]) for start in range(0, len(order), CHUNK)]

    def run(self, pick: npt.NDArray[np.intp]) -> None:
        """Exponentiate the cases ``pick`` (one chunk) into :attr:`out`."""
        work = chunk_workspace(min(CHUNK, self.x.shape[0]), self.x.shape[-1], self.degree)
        self.out[pick] = expm_chunk(
            self.x[pick],
            self.shift[pick],
            self.steps[pick],
            work,
            self.generator,
            self.entry,
            self.offdiagonal,
            self.whole_row,
        )

    def result(self) -> FloatArray:
        """The exponentials (or their entries, or rows) in the shape of the stack given."""
        if self.whole_row:
            return self.out.reshape(*self.shape, self.x.shape[-1])
        if self.entry is not None:
            return self.out.reshape(self.shape)
        return self.out.reshape(*self.shape, *self.x.shape[-2:])


def _prepare(
    g: FloatArray,
    entry: tuple[int, int] | None,
    lead_power: int | None,
    generator: bool,
    reward_columns: int,
    owned: bool = False,
    whole_row: bool = False,
) -> _Prepared:
    """Shift ``g`` to non-negative ``X``, check it, and count each case's squarings.

    ``owned``: ``g`` may be overwritten (when it is a C-contiguous float64 array);
    ``whole_row``: the row of ``entry`` is wanted, not the entry alone.
    """
    size = g.shape[-1]
    shape = g.shape[:-2]
    flat = g.reshape(-1, size, size)
    offdiagonal = mass_mask(size, reward_columns if generator else 0)
    fresh = owned and g.dtype == np.float64 and g.flags.c_contiguous and g.flags.writeable
    x = flat if fresh else np.array(flat, dtype=np.float64, copy=True)
    diagonal = np.einsum("bii->bi", x)  # a writeable view of every diagonal
    if generator:
        # exit rates from the off-diagonals, so the model conserves probability exactly
        diagonal[...] = -np.einsum("bij,ij->bi", x, offdiagonal)
        if reward_columns and np.any(x[:, size - reward_columns :, :] != 0.0):
            raise ValueError("the reward rows of an augmented generator must be zero")
    shift = np.maximum(0.0, -diagonal.min(axis=1, initial=0.0))
    diagonal += shift[:, None]
    if x.size and x.min() < 0:  # the diagonal is >= 0 now, so this checks the off-diagonal
        raise ValueError("expm_metzler needs non-negative off-diagonal entries")
    # ||X||_inf: for a generator every row of X sums to the shift
    plain = generator and not reward_columns
    norm = shift if plain else x.sum(axis=2).max(axis=1, initial=0.0)
    out: FloatArray = (
        np.empty(x.shape[:2])
        if whole_row
        else np.empty(x.shape[0])
        if entry is not None
        else np.empty_like(x)
    )
    return _Prepared(
        x=x,
        shift=shift,
        steps=squarings(norm),
        degree=taylor_degree(size - 1 if lead_power is None else lead_power),
        generator=generator,
        entry=entry,
        offdiagonal=offdiagonal,
        shape=shape,
        out=out,
        whole_row=whole_row,
    )


def _run(stacks: Sequence[_Prepared], threads: int | None) -> None:
    """Run every chunk of ``stacks``, costliest first (:func:`~planner.core.markov.pool.run_tasks`).

    The costliest first, so that no thread is left with a long one at the end; a chunk's
    result does not depend on which thread ran it.
    """
    chunks = [chunk for stack in stacks for chunk in stack.chunks()]
    chunks.sort(key=lambda chunk: -int(chunk[0].steps[chunk[1][0]]) * chunk[0].x.shape[-1] ** 3)
    run_tasks([partial(stack.run, pick) for stack, pick in chunks], threads)


def expm_metzler(
    g: FloatArray,
    entry: tuple[int, int] | None = None,
    lead_power: int | None = None,
    generator: bool = False,
    reward_columns: int = 0,
    *,
    threads: int | None = None,
) -> FloatArray:
    """``exp(G)`` for a stack ``(..., m, m)`` of Metzler matrices (off-diagonal >= 0).

    Args:
        g: the matrices, e.g. ``Q T`` (dimensionless); off-diagonal entries must be >= 0.
        entry: ``(row, column)`` to return only that entry of each exponential (shape
            ``...``), which saves the last full squaring.
        lead_power: length of the shortest path to ``entry`` in the graph of ``G`` (k + 1
            for the loss entry of an n+k chain); default ``m - 1``, which covers any entry.
        generator: True when ``G`` is a generator times a time (rows sum to zero), so that
            the rows of ``exp(G)`` sum to one; the diagonal is then kept by conservation
            (see :func:`~planner.core.markov.taylor.conserve`) after the Taylor step and
            every ``CONSERVE_EVERY`` squarings, which cuts the error growth from ``2^s`` to
            ``s`` ulps.
            The diagonal of ``G`` is then not used beyond choosing the scaling: the model
            is the one whose diagonal is exactly minus the off-diagonal row sums.
        reward_columns: with ``generator``, the last columns are rewards (Van Loan's
            ``[[Q, r], [0, 0]]``, whose top-right block is ``integral_0^T exp(Q t) r dt``):
            the generator is the leading block, its diagonal and the conservation of
            mass are taken without them, and the reward rows must be zero.
        threads: threads for the chunks (default
            :func:`~planner.core.markov.pool.default_threads`); the result is the same, bit
            for bit, for any number.

    Returns:
        The exponentials (``... x m x m``), or the one entry of each (``...``).
    """
    if generator and entry is not None and kernel_enabled():
        lead = g.shape[-1] - 1 if lead_power is None else lead_power
        job = RowJob(g, entry[0], lead, reward_columns)
        return expm_rows([job], threads=threads)[0][..., entry[1]]
    stack = _prepare(g, entry, lead_power, generator, reward_columns)
    _run([stack], threads)
    return stack.result()


def expm_entries(jobs: Sequence[EntryJob], *, threads: int | None = None) -> list[FloatArray]:
    """One entry of each exponential of several generator stacks, in one pool of chunks.

    Every job is :func:`expm_metzler` with ``generator=True`` (its ``entry``,
    ``lead_power`` and ``reward_columns``); the stacks may differ in size. Running them
    together keeps both cores busy to the end, where one stack after another would leave
    one idle at each stack's last chunk. The compiled kernel serves them where it was built
    (:mod:`planner.core.markov.expm_compiled`).
    """
    if kernel_enabled():
        rows = expm_rows(
            [RowJob(j.g, j.entry[0], j.lead_power, j.reward_columns, j.owned) for j in jobs],
            threads=threads,
        )
        return [
            row if j.whole_row else row[..., j.entry[1]] for row, j in zip(rows, jobs, strict=True)
        ]
    stacks = [
        _prepare(j.g, j.entry, j.lead_power, True, j.reward_columns, j.owned, j.whole_row)
        for j in jobs
    ]
    _run(stacks, threads)
    return [stack.result() for stack in stacks]


__all__ = [
    "CHUNK",
    "CONSERVE_EVERY",
    "THETA_MAX",
    "EntryJob",
    "expm_entries",
    "expm_metzler",
]
