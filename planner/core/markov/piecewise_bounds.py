"""The two chains that bound P(loss) on a piece whose failure rate is only known in a range.

On a piece of the mission (:mod:`planner.core.markov.piecewise`) lambda_op(t) lies in
``[low, high]`` and its mean is ``mean``. The exact chain's generator is ``Q(t) = R +
lambda_op(t) D`` (it is linear in lambda_op: :mod:`planner.core.markov.generator`); write
each as its off-diagonal moves ``J`` and its exit rates (``r + lambda_op c`` for state x).
Its transition matrix over the piece is the Dyson series around the diagonal,

    Phi = E(0, dt) + sum_(n >= 1) integral E(0, s_1) J(s_1) E(s_1, s_2) ... J(s_n) E(s_n, dt),

``E(a, b) = diag(exp(-integral_a^b exits))``. Its first term, the group making no move in
the piece, is exactly ``diag(exp(-(r + mean c) dt))``. In every other term each ``J(s)`` is
at most ``J_high`` and at least ``J_low`` entry by entry (moves grow with lambda_op), and
each ``E`` is at most the one at the lowest exit rates and at least the one at the highest.
All factors are non-negative, so, entry by entry,

    exp(M_low dt) - diag(exp(-(r + high c) dt)) + diag(exp(-(r + mean c) dt))  <=  Phi
    Phi  <=  exp(M_high dt) - diag(exp(-(r + low c) dt)) + diag(exp(-(r + mean c) dt)),

``M_high = J_high - diag(r + low c)`` and ``M_low = J_low - diag(r + high c)`` (the series of
a constant matrix sums to its exponential; its first term is taken out and the exact one put
back). Products of non-negative matrices keep the order, so the products over the pieces
bound the mission's transition matrix, and its (pristine, loss) entry, P(loss). Nothing here
needs P(loss) to rise with the failure rate (it does not always).

``M_low``'s rows sum to ``-(high - low) c <= 0``: it is a generator with that mass leaking
to one more absorbing state. ``M_high``'s sum to ``+(high - low) c``: ``M_high - sigma I``,
``sigma`` the largest of those, leaks ``sigma - (high - low) c``, and ``exp(M_high dt) =
exp(sigma dt) exp((M_high - sigma I) dt)``. So both are exponentials of generators (m + 1
states, the leak last), which the engine's exponentials take as they are.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import CommonCause, Event
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.generator import GeneratorParts, generator_parts_of

FloatArray = npt.NDArray[np.float64]

__all__ = ["TINY_RATE", "Bound", "LinearChain"]

TINY_RATE = float(np.finfo(np.float64).tiny)
"""The failure rate (1/h) a piece's rate of 0 is taken as (a Weibull of shape > 1 at age 0;
the chain's inputs must be positive): the difference is below any figure's precision."""


@dataclass(frozen=True)
class Bound:
    """One end of the bracket on a block of pieces: generators and the row's corrections.

    ``p_next = scale x (p exp(generator dt))[:m] + p[:m] x correction`` for the carried row
    ``p`` (``m + 1`` entries, the leak last, ignored).

    Attributes:
        generator: ``(pieces, groups, m + 1, m + 1)`` per hour: the moves of ``M`` and the
            leak column (its diagonal is rebuilt from the rows by the exponentials).
        scale: ``exp(sigma dt)`` (upper end) or 1 (lower), ``(pieces, groups)``; where it
            overflows the upper end is 1 (the row all in the loss state).
        correction: the exact no-move term less the bounding one, ``(pieces, groups, m)``.
    """

    generator: FloatArray
    scale: FloatArray
    correction: FloatArray

    def step(self, row: FloatArray | None, after: FloatArray, index: int) -> FloatArray:
        """The row after piece ``index`` of the block, ``after`` being ``row exp(G dt)``."""
        scale = self.scale[index]
        with np.errstate(invalid="ignore"):
            out: FloatArray = after * scale[:, None]
        if row is None:
            out[:, 0] += self.correction[index][:, 0]
        else:
            out[:, :-1] += row[:, :-1] * self.correction[index]
        # a spread of rates so wide that exp(sigma dt) overflows bounds nothing: all lost
        lost = ~np.isfinite(scale)
        out[lost] = 0.0
        out[lost, -2] = 1.0
        return out


@dataclass(frozen=True)
class LinearChain:
    """A stack's generator parts as ``rest + lambda_op x unit`` (per hour; Q is linear in it)."""

    rest: GeneratorParts
    unit: GeneratorParts

    @classmethod
    def of(cls, parity: int, flat: ChainInputs) -> LinearChain:
        """The parts of ``flat``'s groups (one dimension): all moves but failures, and failures."""
        ones = dataclasses.replace(flat, op_failures_per_hour=np.ones(flat.shape))
        others = [e for e in Event if e is not Event.OPERATIONAL_FAILURE]
        rest = generator_parts_of(parity, ones, events=[*others, CommonCause.SHOCK])
        unit = generator_parts_of(parity, ones, events=[Event.OPERATIONAL_FAILURE])
        return cls(rest, unit)

    def at(self, rates: FloatArray) -> GeneratorParts:
        """The parts with lambda_op = ``rates`` (1/h, one a piece): ``(pieces, groups, ...)``."""
        r = np.maximum(rates, TINY_RATE)[:, None, None]
        return GeneratorParts(
            self.rest.q[None] + r[..., None] * self.unit.q[None],
            self.rest.group_loss[None] + r * self.unit.group_loss[None],
            self.rest.sector_loss[None] + r * self.unit.sector_loss[None],
        )

    @cached_property
    def _exits(self) -> tuple[FloatArray, FloatArray]:
        """(r, c): each state's exit rate without failures, and per unit of lambda_op."""
        rest = -np.diagonal(self.rest.q, axis1=-2, axis2=-1)
        unit = -np.diagonal(self.unit.q, axis1=-2, axis2=-1)
        return rest, unit

    @cached_property
    def _moves(self) -> tuple[FloatArray, FloatArray]:
        """The off-diagonal moves of ``rest`` and ``unit`` (their diagonals zero)."""
        size = self.rest.q.shape[-1]
        off = 1.0 - np.eye(size)
        return self.rest.q * off, self.unit.q * off

    def bound(
        self, low: FloatArray, mean: FloatArray, high: FloatArray, hours: FloatArray, upper: bool
    ) -> Bound:
        """The lower (or ``upper``) end's generators and corrections for pieces of these rates.

        ``low``, ``mean``, ``high``: each piece's lambda_op (1/h, finite); ``hours``: their
        lengths. See the module docstring.
        """
        rest_exit, unit_exit = self._exits
        rest_moves, unit_moves = self._moves
        low, high = np.maximum(low, TINY_RATE), np.maximum(high, TINY_RATE)
        moving = (high if upper else low)[:, None, None, None]
        exiting = (low if upper else high)[:, None, None]
        spread = (high - low)[:, None, None] * unit_exit[None]  # (pieces, groups, m)
        size = rest_exit.shape[-1]
        generator = np.zeros((*spread.shape[:2], size + 1, size + 1))
        generator[..., :size, :size] = rest_moves[None] + moving * unit_moves[None]
        if upper:
            sigma = spread.max(axis=-1)  # (pieces, groups)
            generator[..., :size, size] = sigma[..., None] - spread
            with np.errstate(over="ignore"):
                scale = np.exp(sigma * hours[:, None])
        else:
            generator[..., :size, size] = spread
            scale = np.ones(spread.shape[:2])
        t = hours[:, None, None]
        exact = np.exp(-(rest_exit[None] + mean[:, None, None] * unit_exit[None]) * t)
        bounding = np.exp(-(rest_exit[None] + exiting * unit_exit[None]) * t)
        return Bound(generator, scale, exact - bounding)
