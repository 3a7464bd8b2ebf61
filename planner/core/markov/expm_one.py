"""One entry of the exponential of one small generator, in a few dozen NumPy calls.

:func:`expm_entry` is the method of :func:`planner.core.markov.expm.expm_metzler` (shift,
non-negative Taylor, square, rebuild the diagonal; its accuracy argument holds as it is)
for one matrix: the P(loss) of one layout, the TUI's and ``planner evaluate``'s case. There
a stack's machinery (chunks, index arrays, temporaries) costs more than the arithmetic of
a 4x4 to 10x10 matrix, and every NumPy call costs about the same (0.5 to 1 us), so this
path counts calls, not flops: buffers made once per thread and size, the Taylor powers by
doubling (one call each), a longer Taylor step (:data:`LEAN_THETA`, three squarings fewer)
and the off-diagonal mass carried along in the squarings' own product. It is faster than
one ``scipy.linalg.expm`` call (``benchmarks/bench_engine.py``).
"""

from __future__ import annotations

import math
import threading
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.expm_compiled import expm_row_one, kernel_enabled
from planner.core.markov.taylor import (
    CONSERVE_EVERY,
    masks,
    mass_mask,
    mass_weights,
    taylor_degree,
)

FloatArray = npt.NDArray[np.float64]

__all__ = ["LEAN_THETA", "expm_entry", "expm_row"]

LEAN_THETA = 8.0
"""``THETA_MAX`` of :func:`expm_entry`: its Taylor step costs a call per doubling of the
degree, a squaring a call and a half, so a longer step (3 squarings fewer) pays there."""


_local = threading.local()


@cache
def _lean_coefficients(degree: int) -> FloatArray:
    """``LEAN_THETA^j / j!`` for ``j = 0 .. degree``, read-only (the powers are of X / theta)."""
    coefficients = np.array([LEAN_THETA**j / math.factorial(j) for j in range(degree + 1)])
    coefficients.setflags(write=False)
    return coefficients


class _LeanWork:
    """One thread's buffers for :func:`expm_entry` at one size and degree, made once.

    Everything is transposed, ``Y = X^T``, so that every product writes a contiguous block
    (an operand or output that is not costs a copy, five times the product):

    * the powers ``Y^0 .. Y^degree`` are stacked vertically and made by doubling,
      ``[Y^(a+1); ..; Y^(2a)] = [Y; ..; Y^a] Y^a``, one call per doubling, and the Taylor
      sum is one product of the coefficients with the stack (:meth:`taylor`);
    * the squarings work on ``v = [[F^T], [G^T]]`` (``2m x m``) with ``G = F K``: ``G_li``
      is row l's mass without column i (``K_ji = w_j`` for ``j != i``, ``w`` 0 on reward
      columns), so ``G_ii`` is the off-diagonal mass the rebuilt diagonal needs
      (:meth:`conserve`), carried by the same product: ``v F^T = [[(F F)^T], [(F G)^T]]``.
    """

    def __init__(self, size: int, reward_columns: int, degree: int) -> None:
        self.size = size
        self.degree = degree
        self.coefficients = _lean_coefficients(degree)
        self.weights = mass_weights(size, reward_columns)
        self.ones = mass_weights(size, 0)
        self.mass = mass_mask(size, reward_columns)
        self.powers = np.empty((degree + 1, size, size))
        self.powers[0] = masks(size)[0]
        self.flat_powers = self.powers.reshape(degree + 1, -1)
        self.doublings: list[tuple[FloatArray, FloatArray, FloatArray]] = []
        filled = 1
        while filled < degree:
            take = min(filled, degree - filled)
            self.doublings.append(
                (
                    self.powers[1 : 1 + take].reshape(take * size, size),
                    self.powers[filled],
                    self.powers[filled + 1 : filled + 1 + take].reshape(take * size, size),
                )
            )
            filled += take
        self.pair = np.empty((2, 2 * size, size))
        self.diagonal = slice(None, None, size + 1)
        # F_ii and G_ii of each buffer of the pair, as flat views
        flats = [v.reshape(-1) for v in self.pair]
        self.cells = tuple(range(0, size * size, size + 1))
        self.flats = tuple(flats)
        self.tops = tuple(flat[: size * size] for flat in flats)
        self.masses = tuple(flat[size * size :: size + 1] for flat in flats)

    def taylor(self, shift: float) -> None:
        """``exp(-shift) sum_j Y^j / j!`` for ``Y`` in ``powers[1]``, into ``pair[0]``'s top.

        Every power is a product of non-negative matrices and the sum has positive
        coefficients: the terms of the stacked Taylor step, summed in another order.
        """
        for low, power, high in self.doublings:
            np.dot(low, power, out=high)
        top = self.tops[0]
        np.dot(self.coefficients, self.flat_powers, out=top)
        top *= math.exp(-shift)

    def conserve(self, index: int) -> None:
        """The diagonal rebuilt in ``pair[index]``: ``F_ii = 1 - G_ii`` where ``G_ii <= 1/2``.

        ``G`` was made from the diagonal before the rebuild; its other entries (each about
        1, a row's mass but one entry) differ by the rebuild's rounding, an ulp, which the
        next products carry once, not doubled: the deficiencies stay accurate to a few ulps.
        """
        flat = self.flats[index]
        for cell, deficiency in zip(self.cells, self.masses[index].tolist(), strict=True):
            if deficiency <= 0.5:
                flat[cell] = 1.0 - deficiency


def _lean_work(size: int, reward_columns: int, degree: int) -> _LeanWork:
    """This thread's :class:`_LeanWork` for the size (kept: a few kB each)."""
    works: dict[tuple[int, int, int], _LeanWork] | None = getattr(_local, "lean", None)
    if works is None:
        works = {}
        _local.lean = works
    key = (size, reward_columns, degree)
    work = works.get(key)
    if work is None:
        work = works[key] = _LeanWork(size, reward_columns, degree)
    return work


def expm_entry(
    g: FloatArray, entry: tuple[int, int], lead_power: int, reward_columns: int = 0
) -> float:
    """One entry of ``exp(G)`` for one generator times a time ``G`` (``m x m``).

    The method of :func:`~planner.core.markov.expm.expm_metzler` with ``generator=True``
    (the same shift, Taylor
    degree, squarings and diagonal rebuilt every ``CONSERVE_EVERY`` squarings), written
    for one small matrix, where a stack's machinery (chunks, index arrays, temporaries)
    costs more than the arithmetic: about thirty NumPy calls on 2-D arrays, in buffers
    made once (:class:`_LeanWork`). It agrees with :func:`expm_metzler` to a few ulps (its
    sums run in another order), not bit for bit. Only the off-diagonal entries of ``g`` are
    read; they must be non-negative (not checked: the callers build ``g`` from validated
    rates). ``g`` may be overwritten (a C-contiguous float64 array is used in place).
    """
    if kernel_enabled():
        return float(expm_row_one(g, entry[0], lead_power, reward_columns)[entry[1]])
    return float(_lean_row(g, entry[0], lead_power, reward_columns)[entry[1]])


def expm_row(g: FloatArray, row: int, lead_power: int, reward_columns: int = 0) -> FloatArray:
    """Row ``row`` of ``exp(G)`` (``m`` entries): :func:`expm_entry` for every column at once.

    For Van Loan's augmented generator with several reward columns (one exponential, all
    of its integrals). ``g`` may be overwritten, as for :func:`expm_entry`.
    """
    if kernel_enabled():
        return expm_row_one(g, row, lead_power, reward_columns)
    return _lean_row(g, row, lead_power, reward_columns)


def _lean_row(g: FloatArray, row: int, lead_power: int, reward_columns: int) -> FloatArray:
    """Row ``row`` of ``exp(G)`` by the method of :func:`expm_entry` (the NumPy path)."""
    size = g.shape[0]
    work = _lean_work(size, reward_columns, taylor_degree(lead_power, LEAN_THETA))
    g = np.ascontiguousarray(g, dtype=np.float64)  # so that the flat view below is one
    flat = g.reshape(-1)
    flat[work.diagonal] = 0.0
    # exit rates from the off-diagonals, so the model conserves probability exactly
    exits = np.dot(g, work.weights)
    shift = max(0.0, *exits.tolist())
    flat[work.diagonal] = shift - exits
    norm = max(np.dot(g, work.ones).tolist()) if reward_columns else shift
    steps = math.ceil(math.log2(norm / LEAN_THETA)) if norm > LEAN_THETA else 0
    scale = math.ldexp(1.0, -steps)
    # the powers are of X / theta (norm <= 1: no overflow); theta^j is in the coefficients
    np.multiply(g.T, scale / LEAN_THETA, out=work.powers[1])
    work.taylor(shift * scale)
    index = 0
    pair = work.pair
    np.dot(work.mass, pair[index, :size], out=pair[index, size:])
    work.conserve(index)
    # the pair holds F transposed: F's row r is column r of its top block
    if steps == 0:
        result: FloatArray = pair[index, :size, row].copy()
        return result
    for level in range(steps - 1):
        np.dot(pair[index], pair[index, :size], out=pair[1 - index])
        index = 1 - index
        if level % CONSERVE_EVERY == CONSERVE_EVERY - 1:
            work.conserve(index)
    top = pair[index, :size]
    squared: FloatArray = np.dot(top, top[:, row])  # row r of F F, each a sum of products
    return squared
