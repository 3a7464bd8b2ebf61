"""The exponential of a Metzler matrix without cancellation: ``exp(Q T)`` of a CTMC.

:func:`expm_metzler` computes ``exp(G)`` for a stack of matrices whose off-diagonal
entries are non-negative (a generator ``Q`` times a mission ``T``), so that the
probability of data loss, the (pristine, loss) entry, keeps its relative accuracy at
1e-30 (NS3574 "Probability of data loss" asks for that entry).

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
  Padé step cancels).
* Truncation: the Taylor degree keeps the dropped tail below 1e-19 of each entry, counting
  from the power ``k + 1`` at which the loss entry's series starts (the shortest path to
  loss has k + 1 steps).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

THETA_MAX = 1.0
"""Largest ``||X||_inf`` of one Taylor step (``c h``); larger means fewer squarings."""

CHUNK = 256
"""Cases per chunk: keeps the temporaries small enough to stay in cache (about 2x faster)."""

CONSERVE_EVERY = 2
"""Squarings between rebuilds of the diagonal (see :func:`_conserve`); 2 keeps ~1e-15."""

_TAIL_TOLERANCE = 1e-19
"""Bound on the dropped Taylor tail relative to the kept sum (entrywise, see module doc)."""


@cache
def _taylor_degree(lead_power: int) -> int:
    """Degree of the Taylor polynomial for steps with ``||X|| <= THETA_MAX``.

    An entry whose series starts at ``X^lead_power`` (the length of the shortest path) is
    dropped beyond degree ``M``; the tail relative to the leading term behaves like
    ``theta^(M + 1 - lead) / (M + 1 - lead)!``.
    """
    j = 1
    while THETA_MAX ** (j + 1) / math.factorial(j + 1) > _TAIL_TOLERANCE:
        j += 1
    return j + lead_power


@cache
def _taylor_coefficients(degree: int) -> tuple[int, FloatArray]:
    """Block size ``q`` and the ``blocks x q`` matrix of ``1 / (b q + i)!`` (>= degree)."""
    q = max(2, math.isqrt(degree + 1))
    blocks = -(-(degree + 1) // q)
    coefficients = np.array(
        [[1.0 / math.factorial(b * q + i) for i in range(q)] for b in range(blocks)]
    )
    return q, coefficients


@cache
def _masks(size: int) -> tuple[FloatArray, FloatArray]:
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
def _mass_mask(size: int, reward_columns: int) -> FloatArray:
    """The off-diagonal mask without the last ``reward_columns`` columns, read-only.

    The probability mass of a row of ``exp(G)`` for Van Loan's augmented generator
    ``[[Q, r], [0, 0]]``: the reward columns hold integrals, not probabilities.
    """
    mask = _masks(size)[1].copy()
    if reward_columns:
        mask[:, size - reward_columns :] = 0.0
    mask.setflags(write=False)
    return mask


class _Workspace:
    """Buffers reused by every chunk of one call.

    Fresh temporaries of a few hundred kB each per chunk made glibc map and unmap memory
    at every step (page faults cost as much as the arithmetic); reusing them avoids that.
    """

    def __init__(self, count: int, size: int, degree: int) -> None:
        q, coefficients = _taylor_coefficients(degree)
        self.coefficients = coefficients
        self.powers = np.empty((q + 1, count, size, size))
        self.parts = np.empty((coefficients.shape[0], count, size, size))
        self.ping = np.empty((count, size, size))
        self.pong = np.empty((count, size, size))
        self.final = np.empty((count, size, size))


def _taylor_step(
    x: FloatArray, shift: FloatArray, work: _Workspace
) -> tuple[FloatArray, FloatArray]:
    """``exp(-shift) sum_{j <= degree} x^j / j!`` for a stack of non-negative ``x``.

    Paterson-Stockmeyer: powers ``x^0 .. x^q`` once, then Horner in ``x^q`` over blocks of
    ``q`` coefficients; all coefficients are positive, so every sum is of non-negative terms.
    Returns the result (a view of ``work.ping`` or ``work.pong``) and the other buffer.
    """
    count, size, _ = x.shape
    blocks, q = work.coefficients.shape
    powers = work.powers[:, :count]
    powers[0] = _masks(size)[0]
    powers[1] = x
    for j in range(2, q + 1):
        np.matmul(powers[j - 1], x, out=powers[j])
    top = powers[q]
    parts = work.parts[:, :count]
    # One product for all blocks: B_b(x) = sum_i coefficients[b, i] x^i.
    np.matmul(
        work.coefficients,
        powers[:q].reshape(q, -1),
        out=parts.reshape(blocks, -1),
    )
    result, spare = work.ping[:count], work.pong[:count]
    result[...] = parts[-1]
    for b in range(blocks - 2, -1, -1):
        np.matmul(result, top, out=spare)
        spare += parts[b]
        result, spare = spare, result
    result *= np.exp(-shift)[:, None, None]
    return result, spare


def _squarings(norm: FloatArray) -> npt.NDArray[np.int64]:
    """Number of squarings ``s`` so that ``norm / 2^s <= THETA_MAX`` (0 when already small)."""
    # Below THETA_MAX (a zero norm included) no squaring: log2 of 1 is 0. A norm that is
    # not finite is left to the check of the off-diagonal entries.
    ratio = np.maximum(norm / THETA_MAX, 1.0)
    s = np.ceil(np.log2(ratio, where=np.isfinite(ratio), out=np.zeros_like(ratio)))
    return s.astype(np.int64)


def _conserve(f: FloatArray, offdiagonal: FloatArray) -> FloatArray:
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


def expm_metzler(
    g: FloatArray,
    entry: tuple[int, int] | None = None,
    lead_power: int | None = None,
    generator: bool = False,
    reward_columns: int = 0,
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
            (see :func:`_conserve`) after the Taylor step and every ``CONSERVE_EVERY``
            squarings, which cuts the error growth from ``2^s`` to ``s`` ulps.
            The diagonal of ``G`` is then not used beyond choosing the scaling: the model
            is the one whose diagonal is exactly minus the off-diagonal row sums.
        reward_columns: with ``generator``, the last columns are rewards (Van Loan's
            ``[[Q, r], [0, 0]]``, whose top-right block is ``integral_0^T exp(Q t) r dt``):
            the generator is the leading block, its diagonal and the conservation of
            mass are taken without them, and the reward rows must be zero.

    Returns:
        The exponentials (``... x m x m``), or the one entry of each (``...``).
    """
    size = g.shape[-1]
    shape = g.shape[:-2]
    flat = g.reshape(-1, size, size)
    diagonal = np.arange(size)
    offdiagonal = _mass_mask(size, reward_columns if generator else 0)
    x = flat.copy()
    if generator:
        # exit rates from the off-diagonals, so the model conserves probability exactly
        x[:, diagonal, diagonal] = -np.einsum("bij,ij->bi", x, offdiagonal)
        if reward_columns and np.any(x[:, size - reward_columns :, :] != 0.0):
            raise ValueError("the reward rows of an augmented generator must be zero")
    shift = np.maximum(0.0, -x[:, diagonal, diagonal].min(axis=1, initial=0.0))
    x[:, diagonal, diagonal] += shift[:, None]
    if np.any(x < 0):  # the diagonal is >= 0 now, so this checks the off-diagonal
        raise ValueError("expm_metzler needs non-negative off-diagonal entries")
    # ||X||_inf: for a generator every row of X sums to the shift
    plain = generator and not reward_columns
    norm = shift if plain else x.sum(axis=2).max(axis=1, initial=0.0)
    steps = _squarings(norm)
    degree = _taylor_degree(size - 1 if lead_power is None else lead_power)
    # Most squarings first: within a chunk, the cases still squaring are a prefix (a view).
    order = np.argsort(-steps, kind="stable")
    out = np.empty(flat.shape[0]) if entry is not None else np.empty_like(flat)
    work = _Workspace(min(CHUNK, flat.shape[0]), size, degree)
    for start in range(0, flat.shape[0], CHUNK):
        pick = order[start : start + CHUNK]
        out[pick] = _expm_chunk(
            x[pick], shift[pick], steps[pick], work, generator, entry, offdiagonal
        )
    return out.reshape(shape) if entry is not None else out.reshape(g.shape)


def _expm_chunk(
    x: FloatArray,
    shift: FloatArray,
    steps: npt.NDArray[np.int64],
    work: _Workspace,
    generator: bool,
    entry: tuple[int, int] | None,
    offdiagonal: FloatArray,
) -> FloatArray:
    """:func:`expm_metzler` on one chunk of shifted matrices, ``steps`` non-increasing."""
    count = x.shape[0]
    scale = np.ldexp(1.0, -steps)
    f, other = _taylor_step(x * scale[:, None, None], shift * scale, work)
    if generator:
        _conserve(f, offdiagonal)
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
            _conserve(f[:active], offdiagonal)
    final[:done] = f[:done]
    if entry is None:
        return final.copy()
    row, column = entry
    return np.where(
        steps > 0,
        np.einsum("bi,bi->b", final[:, row, :], final[:, :, column]),
        final[:, row, column],
    )
