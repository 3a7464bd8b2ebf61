"""The n+k continuous-time Markov model of one RAID group, as plain data.

A RAID group of ``N`` drives with ``k`` parity drives (``n = N - k`` data drives) is a
continuous-time Markov chain on states ``(f, l)``:

* ``f`` drives operationally failed and waiting for / under rebuild, ``0 <= f <= k``;
* ``l = 1`` when an undiscovered latent defect (unreadable sector) sits on a surviving drive.

Transitions, all at constant rates per hour (NS3574, "Probability of data loss"):

* operational failure of a drive without the defect ``(f, l) -> (f + 1, l)`` at
  ``(N - f - l) * lambda_op``; the move is data loss when ``f + 1 + l > k``.
* operational failure of the drive holding the defect ``(f, 1) -> (f + 1, 0)`` at
  ``lambda_op`` (issue 20): its unreadable sector goes with it, and the drive is rebuilt
  from the others as any failed drive; never a loss by itself (``l = 1`` only while
  ``f < k``). NS3574 leaves this move out ("only n drives are at risk"), which changes its
  figures by about ``lambda_op / mu_scrub`` (4e-4 relative at the paper's rates) but, in
  regimes of frequent defects, lets a shorter scrub raise P(loss): the holder could not
  fail, so time with a defect looked safer. With the move, every working drive fails at
  ``lambda_op``, ``f`` alone is the birth-death chain of :mod:`planner.core.markov.loss_figures`,
  and a shorter scrub never raises any loss probability (a state with a defect is never
  safer than the same state without).
* latent defect ``(f, 0) -> (f, 1)`` at ``(N - f) * lambda_ld``, only while ``f < k``:
  a latent defect may be the first to k-th event, never the last (NS3574, n+2 model:
  "the latent defect must be the 1st or 2nd event, but cannot be the 3rd").
* rebuild ``(f, l) -> (f - 1, l)`` at ``mu_op``: one rebuild at a time (the paper's
  model), or with ``rebuild_streams`` = s concurrent rebuilds at ``min(f, s) * mu_op``
  (Linux md, ZFS resilver and declustered arrays rebuild every failed drive at once:
  ``s >= k``, written ``None``).
* scrub ``(0, 1) -> (0, 0)`` at ``mu_scrub``.

In a declustered pool (``stripe_share``, issue 20) a stripe spans ``w = d + p`` of the C
drives, so the failure out of ``(p - 1, 1)`` loses sectors only when the defect's stripe
also holds all p failed drives, a share sigma of such moves
(:func:`planner.core.arrays.declustered.defect_stripe_share`): ``(p - 1, 1) -> loss`` at
``sigma (C - p) lambda_op`` and ``(p - 1, 1) -> (p, 0)`` at ``(1 - sigma) (C - p) lambda_op``
(the defect's stripe keeps redundancy; the rebuild reads and repairs it). A traditional
group has sigma = 1 and no such second move.

Multiple latent defects are not tracked: they lose data only if they share a stripe,
which the paper calls "very remote" and leaves out.

What is lost (issue 11): a move into the loss state out of a state *with* a latent defect
(``l = 1``) loses the stripes under that defect, a few sectors (a file to restore); one out
of a state *without* (``l = 0``, k + 1 overlapping operational failures) loses the whole
group. Each such transition carries its :class:`LossKind`; :attr:`Chain.sector_loss_sources`
names the sources of the former. The loss figures of
:mod:`planner.core.markov.loss_figures` rebuild the chain around these two moves: P(group lost)
writes sector losses off, P(sectors lost) restores a lost group, so they no longer sum to
P(loss).

Correlated failures (issue "Beyond independent drives", docs/correlated.md), in a chain
built with ``correlated``:

* every operational failure out of a state with ``f >= 1`` (the holder's included) runs at
  m times its rate, the degraded multiplier (:attr:`Transition.degraded`);
* shocks hit the group at a rate per hour; at a shock each of the ``N - f`` working drives
  fails with probability q, independently (the binomial failure rate model of common-cause
  failure: Vesely 1977, Atwood 1986). Out of ``(f, 0)``, j of the ``W = N - f`` fail at once
  with Binomial(W, q): ``(f, 0) -> (f + j, 0)`` while ``f + j <= k``, the group lost past
  parity. Out of ``(f, 1)`` the defect's holder is exposed as any drive (its defect going
  with it, as at its operational failure), and j of the ``W = N - f - 1`` others fail with
  Binomial(W, q) beside it (:class:`ShockHolder`): the holder spared (factor ``1 - q``),
  ``(f, 1) -> (f + j, 1)`` while ``f + j + 1 <= k`` and ``f + j = k`` loses the defect's
  stripes (a sector loss, thinned by sigma for a pool exactly as the failure out of
  ``(k - 1, 1)``, the rest to ``(k, 0)``); the holder hit (factor q, j >= 0),
  ``(f, 1) -> (f + 1 + j, 0)`` while ``f + 1 + j <= k``. Every shock that leaves more than
  k drives down loses the whole group: one transition, the binomial tail
  (:attr:`Transition.shock_tail`), ``P(Binomial(N - f, q) > k - f)`` out of either state,
  which is the holder spared past ``k - f`` others plus the holder hit with ``k - f`` or
  more of them. So the drives down follow the chain without defects (of P(group lost))
  whatever the defects do; with the holder immune (NS3574's convention), more defects
  lowered the expected group losses, the hours and a pool's P(loss) (docs/correlated.md).

Neutral values (m = 1, no shocks) give the chain without ``correlated`` exactly.

Every move into the loss state carries its kind (:class:`LossKind`): a shock out of a state
with a defect can lose the whole group, so the kind is the transition's, not the source
state's.

States are numbered as in the paper: ordered by ``f`` then ``l``, then the loss state.
For ``k = 1`` this is Figure 1 (1 = pristine, 2 = latent defect, 3 = one failed drive,
4 = data loss); for ``k = 2`` it is Figure 4 (1 = pristine, 2 = latent defect,
3 = one failed, 4 = one failed + latent defect, 5 = two failed, 6 = data loss).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache


class StripeShare(StrEnum):
    """The factor a declustered pool's stripe share puts on a transition's rate."""

    ALL = "1"
    """No factor (every transition of a traditional group)."""
    SHARE = "sigma"
    """sigma: the defect's stripe holds every failed drive (sector loss)."""
    REST = "1 - sigma"
    """1 - sigma: it does not (the rebuild repairs the defect)."""

    def factor(self, sigma: float) -> float:
        """The factor for the share ``sigma`` in [0, 1]."""
        if self is StripeShare.ALL:
            return 1.0
        return sigma if self is StripeShare.SHARE else 1.0 - sigma


class ShockHolder(StrEnum):
    """The factor the latent defect's holder puts on a shock out of a state with a defect."""

    NONE = "1"
    """No factor: no defect in the source state, or the holder counted among the drives."""
    SPARED = "1 - q"
    """1 - q: the shock spares the holder (the defect stays)."""
    HIT = "q"
    """q: the shock fails the holder (its defect goes with it)."""


class Event(StrEnum):
    """The paper's four kinds of transition, with the rate symbol each one uses."""

    OPERATIONAL_FAILURE = "lambda_op"
    LATENT_DEFECT = "lambda_ld"
    REBUILD = "mu_op"
    SCRUB = "mu_scrub"

    @property
    def description(self) -> str:
        """A short phrase for tables: what happens on this transition."""
        return _EVENT_DESCRIPTIONS[self]


_EVENT_DESCRIPTIONS = {
    Event.OPERATIONAL_FAILURE: "operational failure of a drive",
    Event.LATENT_DEFECT: "latent defect appears on a drive",
    Event.REBUILD: "rebuild of a failed drive completes",
    Event.SCRUB: "scrub finds and repairs the latent defect",
}


class CommonCause(StrEnum):
    """The transition a correlated chain adds, with its rate symbol (shocks per group-hour).

    Apart from :class:`Event`, whose four rates are the paper's and which every chain has.
    """

    SHOCK = "lambda_shock"

    @property
    def description(self) -> str:
        """A short phrase for tables: what happens on this transition."""
        return "a shock fails several drives at once"


AnyEvent = Event | CommonCause
"""The event of a transition: the paper's four, or a shock."""


class LossKind(StrEnum):
    """What a move into the loss state loses."""

    GROUP = "group"
    """More than k drives down: the whole group."""
    SECTORS = "sectors"
    """k drives down and a latent defect: the stripes under the defect."""


@dataclass(frozen=True, order=True)
class State:
    """One state of the chain: ``failed`` drives down, ``latent`` defect present (0/1)."""

    failed: int
    latent: int
    is_loss: bool = False

    def describe(self) -> str:
        """Plain-English meaning of the state."""
        if self.is_loss:
            return "data loss (absorbing)"
        if self.failed == 0 and self.latent == 0:
            return "all drives good, no latent defect"
        parts = []
        if self.failed:
            noun = "drive" if self.failed == 1 else "drives"
            parts.append(f"{self.failed} failed {noun} under rebuild")
        if self.latent:
            parts.append("an undiscovered latent defect")
        return " + ".join(parts)

    def short(self) -> str:
        """Compact label ``(f,l)`` or ``loss``."""
        return "loss" if self.is_loss else f"({self.failed},{self.latent})"


@dataclass(frozen=True)
class Transition:
    """A transition ``source -> target`` (indices into :attr:`Chain.states`).

    The rate per hour is ``multiplier(N) * rate(event)`` where the multiplier is the number
    of drives at risk, ``N - drives_excluded``, for failures and defects, and the number of
    repairs running at once, ``concurrent``, for the repairs (1 for the scrub and for one
    rebuild at a time; ``min(f, streams)`` for parallel rebuilds), times ``share``'s factor
    (a declustered pool's stripe share, 1 elsewhere).

    In a correlated chain an operational failure with ``degraded`` runs at m times that
    rate, and a shock (event :attr:`CommonCause.SHOCK`, ``multiplier`` 1) at the shock rate
    times ``P(Binomial(W, q) = j)`` (j = ``shock``), or ``P(Binomial(W, q) >= j)`` with
    ``shock_tail``, where ``W = N - drives_excluded`` are the working drives counted in the
    binomial, times ``holder``'s factor (1, q or 1 - q: the defect's holder hit or spared).
    """

    source: int
    target: int
    event: AnyEvent
    drives_excluded: int | None
    concurrent: int = 1
    share: StripeShare = StripeShare.ALL
    kind: LossKind | None = None
    """What a move into the loss state loses (None for the other moves)."""
    degraded: bool = False
    """An operational failure out of a state with a drive down (the multiplier m applies)."""
    shock: int = 0
    """The drives of the binomial a shock fails at once (j; 0 also where not a shock)."""
    shock_tail: bool = False
    """The shock fails ``shock`` drives or more (the jumps past parity, one transition)."""
    holder: ShockHolder = ShockHolder.NONE
    """A shock out of a state with a defect: the holder hit (q) or spared (1 - q) besides."""

    @property
    def is_shock(self) -> bool:
        """A shock's transition (its rate a binomial share of the shock rate)."""
        return self.event is CommonCause.SHOCK

    def multiplier(self, drives: int) -> int:
        """Number of drives (or repairs) that can cause this transition in a group.

        1 for a shock: the group is hit, its drives' share is :attr:`shock`'s probability.
        """
        if self.is_shock:
            return 1
        return self.concurrent if self.drives_excluded is None else drives - self.drives_excluded


@dataclass(frozen=True)
class Chain:
    """The whole n+k chain: states (loss state last) and transitions."""

    parity: int
    states: tuple[State, ...]
    transitions: tuple[Transition, ...]
    rebuild_streams: int | None = 1
    stripe_share: bool = False
    correlated: bool = False

    @property
    def loss_index(self) -> int:
        """Index of the absorbing data-loss state (always the last)."""
        return len(self.states) - 1

    @property
    def transient_count(self) -> int:
        """Number of non-absorbing states, ``2k + 1``."""
        return len(self.states) - 1

    @property
    def sector_loss_sources(self) -> tuple[int, ...]:
        """States with a move into the loss state that loses sectors, not the whole group.

        The states with an undiscovered latent defect (``l = 1``): the loss there is the
        stripes under the defect. From the others the loss is k + 1 operational failures
        (and, in a correlated chain, a shock past parity from any state).
        """
        sources = (t.source for t in self.transitions if t.kind is LossKind.SECTORS)
        return tuple(dict.fromkeys(sources))


def concurrent_rebuilds(failed: int, rebuild_streams: int | None) -> int:
    """Rebuilds running with ``failed`` drives down: ``min(f, streams)``; None = all of them."""
    return failed if rebuild_streams is None else min(failed, rebuild_streams)


def check_rebuild_streams(rebuild_streams: int | None) -> None:
    """Raise ValueError unless ``rebuild_streams`` is None or a whole number >= 1."""
    if rebuild_streams is not None and (
        isinstance(rebuild_streams, bool)
        or not isinstance(rebuild_streams, int)
        or rebuild_streams < 1
    ):
        raise ValueError(
            f"rebuild_streams must be a whole number >= 1 or None, got {rebuild_streams!r}"
        )


@cache
def build_chain(
    parity: int,
    rebuild_streams: int | None = 1,
    stripe_share: bool = False,
    correlated: bool = False,
) -> Chain:
    """Generate the n+k chain for ``parity`` = k >= 1 parity drives from the rules above.

    ``rebuild_streams``: concurrent rebuilds (1: one at a time, the paper's model; None: every
    failed drive at once). Only ``min(streams, k)`` matters: at most k drives are failed.
    ``stripe_share``: a declustered pool's chain, the sector-loss move thinned by sigma.
    ``correlated``: the shock transitions too (the degraded flag is set on every chain).
    """
    if parity < 1:
        raise ValueError(f"parity must be at least 1, got {parity}")
    check_rebuild_streams(rebuild_streams)
    transient = [
        State(f, latent) for f in range(parity + 1) for latent in (0, 1) if f + latent <= parity
    ]
    loss = State(parity + 1, 0, is_loss=True)
    states = (*transient, loss)
    index = {s: i for i, s in enumerate(transient)}
    transitions: list[Transition] = []
    for s in transient:
        transitions += _failures(s, index, parity, stripe_share)
        i = index[s]
        if s.latent == 0 and s.failed < parity:
            transitions.append(
                Transition(i, index[State(s.failed, 1)], Event.LATENT_DEFECT, s.failed)
            )
        if s.failed > 0:
            down = index[State(s.failed - 1, s.latent)]
            repairs = concurrent_rebuilds(s.failed, rebuild_streams)
            transitions.append(Transition(i, down, Event.REBUILD, None, repairs))
        if s.failed == 0 and s.latent == 1:
            transitions.append(Transition(i, index[State(0, 0)], Event.SCRUB, None))
        if correlated:
            transitions += _shocks(s, index, parity, stripe_share)
    return Chain(parity, states, tuple(transitions), rebuild_streams, stripe_share, correlated)


def _failures(
    s: State, index: dict[State, int], parity: int, stripe_share: bool
) -> list[Transition]:
    """The operational failures out of ``s``: a drive without the defect, then the holder."""
    i = index[s]
    loss_index = len(index)
    degraded = s.failed >= 1
    excluded = s.failed + s.latent
    op = Event.OPERATIONAL_FAILURE
    if s.failed + 1 + s.latent <= parity:
        out = [Transition(i, index[State(s.failed + 1, s.latent)], op, excluded, degraded=degraded)]
    elif s.latent == 0:
        out = [Transition(i, loss_index, op, excluded, kind=LossKind.GROUP, degraded=degraded)]
    else:
        sectors = StripeShare.SHARE if stripe_share else StripeShare.ALL
        out = [
            Transition(i, loss_index, op, excluded, 1, sectors, LossKind.SECTORS, degraded=degraded)
        ]
        if stripe_share:
            kept = index[State(parity, 0)]
            out.append(Transition(i, kept, op, excluded, 1, StripeShare.REST, degraded=degraded))
    if s.latent == 1:
        # The holder fails: its defect goes with it (f + 1 <= k here, never a loss).
        holder_failed = index[State(s.failed + 1, 0)]
        out.append(Transition(i, holder_failed, op, None, 1, degraded=degraded))
    return out


def _shocks(s: State, index: dict[State, int], parity: int, stripe_share: bool) -> list[Transition]:
    """The shock transitions out of ``s`` (module docstring): holder spared, hit; the tail."""
    i, loss_index = index[s], len(index)
    f, excluded = s.failed, s.failed + s.latent

    def move(
        target: int,
        j: int,
        holder: ShockHolder,
        share: StripeShare = StripeShare.ALL,
        kind: LossKind | None = None,
    ) -> Transition:
        return Transition(
            i, target, CommonCause.SHOCK, excluded, 1, share, kind, shock=j, holder=holder
        )

    spared = ShockHolder.SPARED if s.latent else ShockHolder.NONE
    out = [
        move(index[State(f + j, s.latent)], j, spared) for j in range(1, parity - f - s.latent + 1)
    ]
    if s.latent == 1:
        sectors = StripeShare.SHARE if stripe_share else StripeShare.ALL
        out.append(move(loss_index, parity - f, spared, sectors, LossKind.SECTORS))
        if stripe_share:
            out.append(move(index[State(parity, 0)], parity - f, spared, StripeShare.REST))
        # the holder fails, its defect with it: alone (j = 0) or with j others, within parity
        out += [move(index[State(f + 1 + j, 0)], j, ShockHolder.HIT) for j in range(parity - f)]
    tail = parity - f + 1  # past parity, over all N - f working drives (the holder among them)
    out.append(
        Transition(
            i, loss_index, CommonCause.SHOCK, f, kind=LossKind.GROUP, shock=tail, shock_tail=True
        )
    )
    return out
