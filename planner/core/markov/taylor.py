"""The Taylor step of :mod:`planner.core.markov.expm`: degree, coefficients, masks, squarings.

The number of squarings a step needs and the diagonal rebuilt between them are here too.

Shared by the stacked exponential (:mod:`planner.core.markov.expm`) and the one-matrix path
(:mod:`planner.core.markov.expm_one`); the accuracy argument is in the former's docstring.
Everything here is cached by size or degree and read-only.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

THETA_MAX = 1.0
"""Largest ``||X||_inf`` of one Taylor step (``c h``); larger means fewer squarings."""


CONSERVE_EVERY = 2
"""Squarings between rebuilds of the diagonal (see :func:`conserve`); 2 keeps ~1e-15."""

TAIL_TOLERANCE = 1e-17
"""Bound on the dropped Taylor tail relative to the kept sum (entrywise, see module doc).

A tenth of the unit roundoff: below what one rounding leaves. 1e-19 (two degrees more)
gave the same errors against 40-digit mpmath on 200 random chains (at most 1.5e-15), and
so did 1e-15; the series is cut where its tail is lost in the sum anyway."""


@cache
def taylor_degree(lead_power: int, theta: float = THETA_MAX) -> int:
    """Degree of the Taylor polynomial for steps with ``||X|| <= theta``.

    An entry whose series starts at ``X^lead_power`` (the length of the shortest path) is
    dropped beyond degree ``M``; the tail relative to the leading term behaves like
    ``theta^(M + 1 - lead) / (M + 1 - lead)!``.
    """
    j = 1
    while theta ** (j + 1) / math.factorial(j + 1) > TAIL_TOLERANCE:
        j += 1
    return j + lead_power


@cache
def taylor_coefficients(degree: int) -> tuple[int, FloatArray]:
    """Block size ``q`` and the ``blocks x q`` matrix of ``1 / (b q + i)!`` (>= degree)."""
    q = max(2, math.isqrt(degree + 1))
    blocks = -(-(degree + 1) // q)
    coefficients = np.array(
        [[1.0 / math.factorial(b * q + i) for i in range(q)] for b in range(blocks)]
    )
    coefficients.setflags(write=False)
    return q, coefficients


@cache
def masks(size: int) -> tuple[FloatArray, FloatArray]:
    """The identity and the off-diagonal mask (1 off the diagonal) of ``size``, read-only.

    Built once per size: for one small matrix, making them at every call cost as much as
    a squaring.
    """
    eye = np.eye(size)
    offdiagonal = 1.0 - eye
    eye.setflags(write=False)
    offdiagonal.setflags(write=False)
    return eye, offdiagonal


@cache
def mass_mask(size: int, reward_columns: int) -> FloatArray:
    """The off-diagonal mask without the last ``reward_columns`` columns, read-only.

    The probability mass of a row of ``exp(G)`` for Van Loan's augmented generator
    ``[[Q, r], [0, 0]]``: the reward columns hold integrals, not probabilities.
    """
    mask = masks(size)[1].copy()
    if reward_columns:
        mask[:, size - reward_columns :] = 0.0
    mask.setflags(write=False)
    return mask


@cache
def mass_weights(size: int, reward_columns: int) -> FloatArray:
    """1 for the columns that hold probability, 0 for the reward columns, read-only."""
    weights = np.ones(size)
    if reward_columns:
        weights[size - reward_columns :] = 0.0
    weights.setflags(write=False)
    return weights


def squarings(norm: FloatArray) -> IntArray:
    """Number of squarings ``s`` so that ``norm / 2^s <= THETA_MAX`` (0 when already small)."""
    # Below THETA_MAX (a zero norm included) no squaring: log2 of 1 is 0. A norm that is
    # not finite is left to the check of the off-diagonal entries.
    ratio = np.maximum(norm / THETA_MAX, 1.0)
    s = np.ceil(np.log2(ratio, where=np.isfinite(ratio), out=np.zeros_like(ratio)))
    return s.astype(np.int64)


def conserve(f: FloatArray, offdiagonal: FloatArray) -> FloatArray:
    """Rebuild each diagonal entry near 1 from its row's off-diagonal sum (rows sum to 1).

    ``f`` is modified in place. For a slowly left state ``F_ii = 1 - a_i`` with a small
    deficiency ``a_i``; storing ``F_ii`` itself loses ``a_i``'s low bits and the squarings
    raise that ulp to the power ``2^s``. The deficiency ``a_i = sum_{j != i} F_ij`` is a sum
    of non-negative, relatively accurate entries, so ``1 - a_i`` is correct to half an ulp
    afresh at every level. Entries below 1/2 keep their product value, which is accurate
    there (a sum of non-negative terms, not a difference).
    """
    deficiency = np.einsum("bij,ij->bi", f, offdiagonal)
    diagonal = np.einsum("bii->bi", f)  # a writeable view: no fancy-index copy and write
    np.copyto(diagonal, 1.0 - deficiency, where=deficiency <= 0.5)
    return f
