"""Mean time to data loss: an entrywise accurate solve of the chain's transient block.

The MTTDL from pristine is ``x[0]`` of ``-A x = 1``, ``A`` the generator on the transient
states. ``-A`` is a row diagonally dominant M-matrix whose row excesses are the rates of
moving straight to the loss state; a plain LU solve of it is ill-conditioned (rcond ~ 1e-17
for k = 4), so :func:`solve_mmatrix` never forms a pivot by subtraction (Grassmann,
Taksar and Heyman's idea, generalised to M-matrices by Alfa, Xue and Ye, "Accurate
computation of the smallest eigenvalue of a diagonally dominant M-matrix", Math. Comp.
71, 2002). :func:`mttdl_stack` does the same for a stack of generators at once.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def solve_mmatrix(m: FloatArray, row_excess: FloatArray, rhs: FloatArray) -> FloatArray:
    """Solve ``m x = rhs`` for a row diagonally dominant M-matrix, entrywise accurately.

    ``m`` has non-positive off-diagonal entries and ``row_excess[i] = sum_j m[i, j] >= 0``
    (for ``-A`` of a CTMC: the rate of leaving state i straight to the loss state). The
    elimination never forms the diagonal by subtraction: it keeps the row excesses and
    rebuilds each pivot as ``excess + sum |off-diagonal|``, the Grassmann-Taksar-Heyman idea
    generalised to M-matrices (Alfa, Xue and Ye, Math. Comp. 71, 2002). Every update then
    adds numbers of one sign, so ``x`` is accurate to a few ulps whatever the conditioning.
    ``rhs`` must be non-negative.
    """
    a = np.array(m, dtype=float)
    v = np.array(row_excess, dtype=float)
    b = np.array(rhs, dtype=float)
    size = a.shape[0]
    for j in range(size):
        a[j, j] = v[j] + np.abs(a[j, j + 1 :]).sum()
        for i in range(j + 1, size):
            if a[i, j] == 0.0:
                continue
            factor = -a[i, j] / a[j, j]  # >= 0
            a[i, j] = 0.0
            # Off-diagonals: sums of non-positive numbers. The diagonal entry picks up a
            # cancellation here, but it is rebuilt from the excess when it becomes a pivot.
            a[i, j + 1 :] += factor * a[j, j + 1 :]
            v[i] += factor * v[j]
            b[i] += factor * b[j]
    x = np.zeros(size)
    for i in range(size - 1, -1, -1):
        x[i] = (b[i] + np.abs(a[i, i + 1 :]) @ x[i + 1 :]) / a[i, i]
    return x


def solve_mmatrix_stack(m: FloatArray, row_excess: FloatArray, rhs: FloatArray) -> FloatArray:
    """:func:`solve_mmatrix` for a stack: ``m`` is ``(..., n, n)``, the others ``(..., n)``.

    The same elimination, each step on every matrix at once (a loop over the columns, not
    over the matrices).
    """
    a = np.array(m, dtype=np.float64)
    v = np.array(row_excess, dtype=np.float64)
    b = np.array(rhs, dtype=np.float64)
    size = a.shape[-1]
    for j in range(size):
        a[..., j, j] = v[..., j] + np.abs(a[..., j, j + 1 :]).sum(axis=-1)
        factor = -a[..., j + 1 :, j] / a[..., j, j, None]  # >= 0, rows below the pivot
        a[..., j + 1 :, j] = 0.0
        a[..., j + 1 :, j + 1 :] += factor[..., :, None] * a[..., j, None, j + 1 :]
        v[..., j + 1 :] += factor * v[..., j, None]
        b[..., j + 1 :] += factor * b[..., j, None]
    x = np.zeros(b.shape)
    for i in range(size - 1, -1, -1):
        later = np.einsum("...j,...j->...", np.abs(a[..., i, i + 1 :]), x[..., i + 1 :])
        x[..., i] = (b[..., i] + later) / a[..., i, i]
    return x


def mttdl_stack(q: FloatArray) -> FloatArray:
    """Mean time to data loss (h) from pristine for a stack of generators ``q`` (per hour).

    ``q``: ``(..., m, m)``, the loss state last (:mod:`planner.core.markov.generator`);
    ``-A x = 1`` on the transient block, ``x[0]`` (:func:`solve_mmatrix_stack`).
    """
    transient = q[..., :-1, :-1]
    ones = np.ones(transient.shape[:-1])
    return solve_mmatrix_stack(-transient, q[..., :-1, -1], ones)[..., 0]
