"""One pass of the time-inhomogeneous chain over the mission's pieces (:mod:`.piecewise`).

:func:`carried_figures` carries six distributions through the pieces: the four chains of
:mod:`planner.core.markov.loss_figures` at each piece's mean failure rate, and the two
chains whose P(loss) bound the exact one (:mod:`.piecewise_bounds`). Two ways, the same
numbers to rounding:

* **Row by row on the compiled kernel** (stacks of many groups): each piece is one call of
  :func:`~planner.core.markov.expm_compiled.expm_rows` whose jobs start from the rows
  carried so far (``RowJob.start``: ``p exp(Q dt)``, the absorbing and reward columns
  accumulating), the four value chains read from one generator stack as
  :func:`~planner.core.markov.loss_figures.compiled_jobs` reads them.
* **Whole exponentials, then row products** (few groups, or no kernel): the exponentials
  of a block of pieces in one call of :func:`~planner.core.markov.expm.expm_metzler`
  (the same method, whole matrices), then ``p_(j+1) = p_j E_j`` piece by piece. A
  call's fixed cost is paid once a block rather than once a piece: for one layout this is
  twenty times faster than a kernel call a piece.

Every product adds non-negative terms, so tiny probabilities keep their relative accuracy.
Q is linear in lambda_op (:mod:`planner.core.markov.generator`): the stack's generator is
built once as ``rest + lambda_op unit`` and each piece's is one multiply-add.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.markov.ageing import Ageing, MissionPieces
from planner.core.markov.chain import State, build_chain
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.expm import expm_metzler
from planner.core.markov.expm_compiled import ADD, ASSIGN, RowJob, expm_rows, kernel_enabled
from planner.core.markov.generator import GeneratorParts
from planner.core.markov.loss_figures import (
    ChainFigures,
    compiled_jobs,
    group_lost_stack,
    lead_power,
    not_going_on,
    sectors_lost_generator,
)
from planner.core.markov.piecewise_bounds import Bound, LinearChain

FloatArray = npt.NDArray[np.float64]

__all__ = ["KERNEL_MIN_GROUPS", "Carried", "carried_figures", "first_piece_delta"]

KERNEL_MIN_GROUPS = 256
"""Groups from which a stack is carried row by row on the kernel (fewer: whole
exponentials in blocks, whose single call costs less than a kernel call a piece)."""

BLOCK_BYTES = 16_000_000
"""Most bytes of a block's operators, every chain's (the whole-matrix way)."""


@dataclass(frozen=True)
class Carried:
    """One pass over the pieces, groups in one dimension.

    Attributes:
        figures: the four figures at the pieces' mean rates.
        p_loss_low: at most the exact P(loss) (:mod:`.piecewise_bounds`).
        p_loss_high: at least the exact P(loss).
        gains: P(loss) gained in each piece at the mean rates, ``(pieces, groups)``.
        delta: the probability of leaving pristine in an unbounded first piece (0 where
            there is none), per group.
    """

    figures: ChainFigures
    p_loss_low: FloatArray
    p_loss_high: FloatArray
    gains: FloatArray
    delta: FloatArray


def first_piece_delta(flat: ChainInputs, ageing: Ageing, length: float) -> FloatArray:
    """P(anything happens in ``[0, length]`` h from pristine): a failure, a defect, a shock.

    ``1 - exp(-(N H + N lambda_ld t + shocks t))``: the pristine state's exits over the
    piece, an upper bound on the probability of leaving it (a shock that fails no drive
    counted too).
    """
    failures = ageing.expected_failures(0.0, length)
    exits = flat.drives * (failures + flat.latent_defects_per_hour * length)
    delta: FloatArray = -np.expm1(-(exits + flat.shocks_per_hour * length))
    return delta


def carried_figures(
    parity: int,
    flat: ChainInputs,
    ageing: Ageing,
    pieces: MissionPieces,
    *,
    threads: int | None = None,
) -> Carried:
    """The four figures at the pieces' mean rates, and P(loss)'s bracket.

    ``flat`` (one dimension): the groups; their failure rate and mission are replaced by
    each piece's (its rate, its length). With ``pieces.exact`` the bracket is the value
    (its chains are not run).
    """
    count = flat.shape[0]
    unbounded = not pieces.exact and not np.isfinite(pieces.high[0])
    delta = first_piece_delta(flat, ageing, float(pieces.hours[0])) if unbounded else None
    state = _State(LinearChain.of(parity, flat), parity, pieces, delta)
    if kernel_enabled() and count >= KERNEL_MIN_GROUPS:
        for j in range(pieces.count):
            state.piece_compiled(j, threads)
        return state.result()
    size = 2 * parity + 3  # the chains' states, padded to the events chain's and the ends'
    block = max(1, BLOCK_BYTES // (8 * size * size * count * len(state.rows)))
    carry = _Products(state)
    for first in range(0, pieces.count, block):
        carry.block(range(first, min(first + block, pieces.count)), threads)
    return carry.result()


class _State:
    """The six rows carried through the pieces, and the P(loss) gained in each.

    Rows 0-3: the value chains (:func:`~planner.core.markov.loss_figures.compiled_jobs`'
    order); rows 4 and 5: the lower and upper ends (:mod:`.piecewise_bounds`), ``m + 1``
    entries each (the leak last).
    """

    def __init__(
        self, linear: LinearChain, parity: int, pieces: MissionPieces, delta: FloatArray | None
    ) -> None:
        self.linear = linear
        self.parity = parity
        self.pieces = pieces
        count = linear.rest.q.shape[0]
        self.delta = np.zeros(count) if delta is None else delta
        self.rows: list[FloatArray | None] = [None] * (4 if pieces.exact else 6)
        self.gains: list[FloatArray] = []

    def bounds(self, block: range) -> list[Bound]:
        """The lower and upper ends' generators and corrections on the pieces of ``block``."""
        pieces, chosen = self.pieces, slice(block.start, block.stop)
        if pieces.exact:
            return []
        finite = np.isfinite(pieces.high[chosen])
        high = np.where(finite, pieces.high[chosen], pieces.mean[chosen])
        args = (pieces.low[chosen], pieces.mean[chosen], high, pieces.hours[chosen])
        return [self.linear.bound(*args, upper=False), self.linear.bound(*args, upper=True)]

    def piece_compiled(self, j: int, threads: int | None) -> None:
        """Carry every row through piece ``j`` on the kernel."""
        hours = self.pieces.hours[j : j + 1]
        value = self.linear.at(self.pieces.mean[j : j + 1])
        bounds = self.bounds(range(j, j + 1))
        self._carry(self._rows_compiled(value, bounds, hours, threads), bounds, 0, range(j, j + 1))

    def _rows_compiled(
        self, value: GeneratorParts, bounds: list[Bound], hours: FloatArray, threads: int | None
    ) -> list[FloatArray]:
        """One piece on the kernel: each chain from its carried row (``RowJob.start``)."""
        lanes = np.full(self.delta.shape, float(hours[0]))
        one = GeneratorParts(value.q[0], value.group_loss[0], value.sector_loss[0])
        jobs = _value_jobs(one, self.parity, lanes)
        lead = self.parity + 1
        jobs += [RowJob(b.generator[0], 0, lead, scale=lanes) for b in bounds]
        started = [
            job if start is None else dataclasses.replace(job, start=start)
            for job, start in zip(jobs, self.rows, strict=True)
        ]
        return expm_rows(started, threads=threads)

    def _carry(
        self, after: list[FloatArray], bounds: list[Bound], index: int, block: range
    ) -> None:
        """Take the rows ``after`` a piece (the ends corrected), and the P(loss) it gained."""
        first = block.start + index == 0
        before = np.zeros(self.delta.shape) if first else _last(self.rows[0])
        rows: list[FloatArray | None] = list(after[:4])
        for bound, previous, moved in zip(bounds, self.rows[4:], after[4:], strict=True):
            rows.append(bound.step(previous, moved, index))
        self.rows = rows
        if first and np.any(self.delta > 0):
            self._after_unbounded()
        self.gains.append(_last(self.rows[0]) - before)

    def _after_unbounded(self) -> None:
        """An unbounded first piece: both ends restart from what is known after it.

        The group stayed pristine through it with probability at least ``1 - delta``: the
        lower end goes on from that mass alone, the upper one with the rest counted as lost
        (no state is worse).
        """
        row = self.rows[4]
        assert row is not None
        pristine = np.zeros_like(row)
        pristine[:, 0] = 1.0 - self.delta
        lost = pristine.copy()
        lost[:, LOSS_OF_BOUND] = self.delta
        self.rows[4], self.rows[5] = pristine, lost

    def result(self) -> Carried:
        """The pass's figures and bracket from the carried rows."""
        p_loss = _probability(self.rows[0])
        value = ChainFigures(
            p_loss=p_loss,
            p_group_lost=_probability(self.rows[1]),
            p_sectors_lost=_probability(self.rows[2]),
            expected_sector_loss_events=np.maximum(_last(self.rows[3]), 0.0),
            **not_going_on(p_loss.shape),
        )
        low = high = value.p_loss
        if not self.pieces.exact:
            low = _probability(self.rows[4], LOSS_OF_BOUND)
            high = _probability(self.rows[5], LOSS_OF_BOUND)
        gains = np.array(self.gains)
        return Carried(value, low, np.maximum(high, low), gains, self.delta)


class _Products:
    """The whole-matrix way: a block's exponentials at once, then one product a piece.

    Each chain's exponential of a piece is an operator on its row: the value chains' as
    they are, each end's folded with its correction (``scale E + diag(correction)``, the
    leak dropped; all lost where the scale overflows). All six are padded to one size and
    carried by one ``einsum`` a piece.
    """

    def __init__(self, state: _State) -> None:
        self.state = state
        parity = state.parity
        self.m = 2 * parity + 2
        # each chain's loss (or reward) column, the states padded to m + 1
        self.columns = [self.m - 1, parity + 1, self.m - 1, self.m - 1, self.m - 1, self.m - 1]
        self.columns = self.columns[: len(state.rows)]
        self.rows: FloatArray | None = None
        self.history: list[FloatArray] = []

    def block(self, block: range, threads: int | None) -> None:
        """Carry the rows through the pieces of ``block``."""
        state = self.state
        chosen = slice(block.start, block.stop)
        value = state.linear.at(state.pieces.mean[chosen])
        operators = self._operators(value, state.bounds(block), state.pieces.hours[chosen], threads)
        for index, j in enumerate(block):
            step = operators[:, index]  # (chains, groups, m + 1, m + 1)
            if self.rows is None:
                self.rows = step[:, :, 0, :].copy()
            else:
                self.rows = np.einsum("cbi,cbij->cbj", self.rows, step)
            if j == 0 and np.any(state.delta > 0):
                self.rows[4:6] = 0.0
                self.rows[4:6, :, 0] = 1.0 - state.delta
                self.rows[5, :, self.m - 1] = state.delta
            self.history.append(self.rows[0, :, self.columns[0]].copy())

    def _operators(
        self, value: GeneratorParts, bounds: list[Bound], hours: FloatArray, threads: int | None
    ) -> FloatArray:
        """Every chain's operator on each piece: ``(chains, pieces, groups, m + 1, m + 1)``."""
        m, parity = self.m, self.state.parity
        t = hours[:, None, None]
        g = value.q * t[..., None]
        group, sectors = value.group_loss * t, value.sector_loss * t
        stacks = [
            (g, 0),
            (group_lost_stack(g, parity), 0),
            (sectors_lost_generator(g, group, sectors), 0),
            (_sector_events_matrix(g, group, sectors, parity), 1),
            *((b.generator * t[..., None], 0) for b in bounds),
        ]
        out = np.zeros((len(stacks), *g.shape[:2], m + 1, m + 1))
        for c, (stack, rewards) in enumerate(stacks):
            whole = expm_metzler(stack, generator=True, reward_columns=rewards, threads=threads)
            size = m if c >= 4 else whole.shape[-1]
            out[c, ..., :size, :size] = whole[..., :size, :size]
        for c, bound in enumerate(bounds, start=4):
            lost = ~np.isfinite(bound.scale)
            scale = np.where(lost, 0.0, bound.scale)
            out[c] *= scale[..., None, None]
            diagonal = np.einsum("...ii->...i", out[c])[..., :m]
            diagonal += bound.correction
            out[c][lost] = 0.0
            out[c][lost, :, m - 1] = 1.0
        return out

    def result(self) -> Carried:
        """The pass's figures and bracket from the carried rows."""
        rows = self.rows
        assert rows is not None
        columns = self.columns
        value = ChainFigures(
            p_loss=np.clip(rows[0, :, columns[0]], 0.0, 1.0),
            p_group_lost=np.clip(rows[1, :, columns[1]], 0.0, 1.0),
            p_sectors_lost=np.clip(rows[2, :, columns[2]], 0.0, 1.0),
            expected_sector_loss_events=np.maximum(rows[3, :, columns[3]], 0.0),
            **not_going_on(rows.shape[1:2]),
        )
        low = high = value.p_loss
        if len(columns) == 6:
            low = np.clip(rows[4, :, columns[4]], 0.0, 1.0)
            high = np.clip(rows[5, :, columns[5]], 0.0, 1.0)
        losses = np.array(self.history)
        gains = np.diff(losses, axis=0, prepend=0.0)
        delta = self.state.delta
        return Carried(value, low, np.maximum(high, low), gains, delta)


LOSS_OF_BOUND = -2
"""The loss state's column in a bound's row (the leak is last)."""


def _last(row: FloatArray | None, column: int = -1) -> FloatArray:
    assert row is not None  # every chain ran at least one piece
    return row[:, column].copy()


def _probability(row: FloatArray | None, column: int = -1) -> FloatArray:
    """A column of a carried row (a probability), kept in [0, 1]."""
    loss: FloatArray = np.clip(_last(row, column), 0.0, 1.0)
    return loss


def _sector_events_matrix(
    q: FloatArray, group: FloatArray, sectors: FloatArray, parity: int
) -> FloatArray:
    """Van Loan's matrix for the expected sector-loss events of a piece, from the paper's ``q``.

    ``[[Q_on, r], [0, 0]]`` (``... x m x m``): ``Q_on`` the going-on chain on the m - 1
    transient states (a sector loss to ``(k, 0)``, a group loss to pristine), ``r`` each
    state's sector-loss rate ``sectors`` (1/h). ``exp(M T)[0, m - 1] = integral_0^T p(t) r
    dt``, the expected events from pristine. The last column makes the rows sum to ``r``,
    not zero: :func:`~planner.core.markov.expm.expm_metzler` takes it as a reward column
    (``reward_columns=1``) and conserves the mass of the generator block.
    """
    loss = q.shape[-1] - 1
    out = sectors_lost_generator(q, group, sectors)
    # every sector loss leaves k drives down: k - f - 1 failed with the f, plus the one
    # whose stripes were lost (the defect goes, the rebuild reads and repairs)
    out[..., :loss, _full_defect(parity)] += sectors[..., :loss]
    out[..., loss, :] = 0.0
    return out


def _full_defect(parity: int) -> int:
    """``(k, 0)``: where a sector loss leaves a group that goes on (k drives down)."""
    index = {state: i for i, state in enumerate(build_chain(parity).states)}
    return index[State(parity, 0)]


def _value_jobs(parts: GeneratorParts, parity: int, lanes: FloatArray) -> list[RowJob]:
    """The four value chains of a piece as kernel jobs, in :class:`_State`'s row order.

    P(loss), P(group lost) and P(sectors lost) as
    :func:`~planner.core.markov.loss_figures.compiled_jobs` gives them; the expected
    sector-loss events as :func:`_sector_events_matrix` (one reward column: the events
    integrate over each piece and carry as a row, where the going-on job's hour fractions
    are of one mission).
    """
    q = parts.q
    loss = q.shape[-1] - 1
    group, sectors = loss + 1, loss + 2  # the loss rates by kind: the extra columns
    restored = tuple((state, group, 0, ADD) for state in range(loss))
    only_sectors = tuple((state, sectors, loss, ASSIGN) for state in range(loss))
    goes_on = tuple((state, sectors, _full_defect(parity), ADD) for state in range(loss))
    by_kind = np.stack([parts.group_loss, parts.sector_loss], axis=-1)
    events = RowJob(
        q,
        0,
        lead_power(parity),
        1,
        moves=restored + only_sectors + goes_on,
        scale=lanes,
        extra=by_kind,
    )
    return [*compiled_jobs(parts, parity, lanes)[:3], events]
