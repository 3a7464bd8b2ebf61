"""The NumPy path of :func:`planner.core.markov.expm.expm_metzler`: one chunk of matrices.

What belongs here: the arithmetic of "shift, non-negative Taylor, square, conserve" on one
chunk of already shifted, non-negative matrices (:func:`expm_chunk`): the Taylor step by
Paterson-Stockmeyer (:func:`_taylor_step`), the squarings with the diagonal rebuilt by
conservation (:func:`~planner.core.markov.taylor.conserve`), and the buffers each thread
reuses for its chunks (:class:`Workspace`). The method and its accuracy argument are in
:mod:`planner.core.markov.expm`, which shifts and checks the stacks, cuts them into chunks
and runs the chunks on threads; the compiled kernel does the same arithmetic in C
(:mod:`planner.core.markov.expm_compiled`).
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from planner.core.markov.taylor import CONSERVE_EVERY, conserve, masks, taylor_coefficients

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class Workspace:
    """Buffers reused by every chunk a thread runs for one stack.

    Fresh temporaries of a few hundred kB each per chunk made glibc map and unmap memory
    at every step (page faults cost as much as the arithmetic); reusing them avoids that.
    """

    def __init__(self, count: int, size: int, degree: int) -> None:
        q, coefficients = taylor_coefficients(degree)
        self.key = (count, size, degree)
        self.coefficients = coefficients
        self.powers = np.empty((q + 1, count, size, size))
        self.powers[0] = masks(size)[0]  # never written again: x^0 for every chunk
        self.parts = np.empty((coefficients.shape[0], count, size, size))
        self.ping = np.empty((count, size, size))
        self.pong = np.empty((count, size, size))
        self.final = np.empty((count, size, size))


_local = threading.local()


def chunk_workspace(count: int, size: int, degree: int) -> Workspace:
    """This thread's workspace for chunks of ``count`` matrices of ``size`` (only the last kept)."""
    work: Workspace | None = getattr(_local, "work", None)
    if work is None or work.key != (count, size, degree):
        work = Workspace(count, size, degree)
        _local.work = work
    return work


def _taylor_step(
    x: FloatArray, scale: FloatArray, shift: FloatArray, work: Workspace
) -> tuple[FloatArray, FloatArray]:
    """``exp(-shift) sum_{j <= degree} (x scale)^j / j!`` for a stack of non-negative ``x``.

    Paterson-Stockmeyer: powers ``x^0 .. x^q`` once, then Horner in ``x^q`` over blocks of
    ``q`` coefficients; all coefficients are positive, so every sum is of non-negative terms.
    Returns the result and a spare buffer of its shape (views of ``work``).
    """
    count = x.shape[0]
    blocks, q = work.coefficients.shape
    powers = work.powers[:, :count]
    np.multiply(x, scale[:, None, None], out=powers[1])
    step = powers[1]
    for j in range(2, q + 1):
        np.matmul(powers[j - 1], step, out=powers[j])
    top = powers[q]
    parts = work.parts[:, :count]
    # One product for all blocks: B_b(x) = sum_i coefficients[b, i] x^i.
    np.matmul(
        work.coefficients,
        powers[:q].reshape(q, -1),
        out=parts.reshape(blocks, -1),
    )
    # Horner from the last block, which is its own start (no copy); its buffer is then free
    result, spare = parts[-1], work.ping[:count]
    for b in range(blocks - 2, -1, -1):
        np.matmul(result, top, out=spare)
        spare += parts[b]
        result, spare = spare, (work.pong[:count] if b == blocks - 2 else result)
    result *= np.exp(-shift)[:, None, None]
    return result, spare


def expm_chunk(
    x: FloatArray,
    shift: FloatArray,
    steps: IntArray,
    work: Workspace,
    generator: bool,
    entry: tuple[int, int] | None,
    offdiagonal: FloatArray,
    whole_row: bool = False,
) -> FloatArray:
    """:func:`~planner.core.markov.expm.expm_metzler` on one chunk of shifted matrices.

    With ``entry``, that entry of each (``whole_row``: its row), else the exponentials.
    """
    count = x.shape[0]
    scale = np.ldexp(1.0, -steps)
    f, other = _taylor_step(x, scale, shift * scale, work)
    if generator:
        conserve(f, offdiagonal)
    # Rebuilding the diagonal every other squaring: an inherited error doubles at most
    # once before it is replaced (3e-15 against 50-digit mpmath at c T ~ 2e5, 1.5e-15 when
    # rebuilt every time, 5e-12 never), for ~10% less time.
    # With one entry wanted, each case's last squaring is a dot product (below).
    last = steps - 1 if entry is not None else steps
    final = work.final[:count]
    done = count
    # ``last`` is non-increasing: the cases still squaring at ``level`` are a prefix
    remaining = last.tolist()
    for level in range(remaining[0] if remaining else 0):
        active = done
        while active and remaining[active - 1] <= level:
            active -= 1
        if active < done:
            final[active:done] = f[active:done]  # these cases have all their squarings
            done = active
        np.matmul(f[:active], f[:active], out=other[:active])
        f, other = other, f
        if generator and level % CONSERVE_EVERY == CONSERVE_EVERY - 1:
            conserve(f[:active], offdiagonal)
    final[:done] = f[:done]
    if entry is None:
        return final.copy()
    row, column = entry
    if whole_row:
        return np.where(
            (steps > 0)[:, None],
            np.einsum("bi,bij->bj", final[:, row, :], final),
            final[:, row, :],
        )
    return np.where(
        steps > 0,
        np.einsum("bi,bi->b", final[:, row, :], final[:, :, column]),
        final[:, row, column],
    )
