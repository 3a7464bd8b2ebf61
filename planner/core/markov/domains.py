"""The enclosure chain: a RAID group whose drives share failure domains (docs/domains.md).

Shelves, controllers, cables and power feeds take several drives offline at once (Jiang,
Hu, Zhou and Kanevsky, "Are disks the dominant contributor for storage failures?", FAST
2008). A group of N drives with k parity drives sits in enclosures by a placement
(:class:`~planner.core.markov.enclosures.Placement`: ``large`` enclosures holding ``L`` of
its drives, ``small`` holding ``S``); each enclosure fails at ``lambda_e`` per hour and is
repaired on its own at ``mu_e = 1 / repair_hours``.

**What "down" means.** A failed enclosure makes its drives *unavailable until it is
repaired*; they come back with their data and need no rebuild (a shelf, controller or cable
fault seldom destroys the drives behind it). A state ``(c, f, g, l)``: ``c = (x, y)`` large
and small enclosures of the group down, ``d = x L + y S`` drives offline; f failed drives
online (being rebuilt) and g failed drives offline (their rebuild waits for the enclosure);
l the latent defect: 0 none, 1 on a working drive online, 2 (3) on a working drive offline
in a large (small) enclosure. The group serves while ``d + f <= k``: the drives missing are
the offline ones and the failed ones online. Its offline drives go stale as it is written,
so it loses data as the paper's chain does with ``k - d`` parity drives:

* a working online drive fails at ``lambda_op`` (each): f + 1; past parity a whole-group
  loss (the writes since the outage began cannot be rebuilt), or, with k drives missing and
  the defect online while a rebuild runs, the defect's stripes (a pool's sigma of it, the
  rest goes on without the defect, as in :mod:`planner.core.markov.chain`);
* a latent defect appears on a working online drive at ``lambda_ld`` (each) while
  ``d + f < k``, or while ``d = k`` and ``f = 0``; one defect is tracked, so an offline one
  is then dropped;
* rebuilds run at ``min(f, streams) mu_op``; the scrub finds an online defect at
  ``mu_scrub`` when no rebuild runs and repairs it while parity is left. With ``d = k``,
  ``f = 0`` and the defect online the group waits **exposed**: no rebuild reads the
  defect's stripes, the scrub loses them (sigma of it), any failure loses the group;
* an enclosure fails at ``lambda_e`` (each of those up). Which drives it holds is drawn
  from the online ones alike: j of the f failed and h of the defect's holder with the
  multivariate hypergeometric probability ``C(f, j) C(h1, h) C(rest, size - j - h) /
  C(N - d, size)``; they go offline with it (``f -> f - j``, ``g -> g + j``). Past parity
  (``d' + f' > k``) it is an **outage beyond parity**: the group stops serving, nothing is
  written, no data is lost; the chain does not move (the group resumes as it was when the
  enclosure returns; its idle drives' failures in the repair's hours are neglected) and the
  move counts in P(unavailable) (:mod:`planner.core.markov.domain_figures`);
* a down enclosure returns at ``mu_e`` (each), holding j of the g offline failed drives and
  perhaps the offline defect's holder, drawn the same way from the offline drives; its
  failed drives' rebuilds start (with k missing and the defect online that rebuild reads
  the defect's stripes: a sector loss).

With one drive of the group per enclosure the draws are exact and so is the chain (the
tests enumerate every drive and enclosure on its own). With more, they take the failed
drives and the holder to be spread over the enclosures alike, which the history of
outages can bias: the enumeration measures that too. Drives offline neither fail nor grow
defects (they are not read).

The generator is linear in the rates, so the chain is kept as coefficient arrays over
:data:`FEATURES` (each a rate, or a rate times sigma or 1 - sigma): ``Q = features @ forms``
for a whole stack at once, every coefficient non-negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import check_rebuild_streams, concurrent_rebuilds
from planner.core.markov.enclosures import Placement

FloatArray = npt.NDArray[np.float64]

__all__ = [
    "FEATURES",
    "RATE_FEATURES",
    "SECTOR_CAUSES",
    "DomainChain",
    "DomainState",
    "check_domain_size",
    "domain_chain",
]

FEATURES = (
    "lambda_op",
    "lambda_ld",
    "mu_op",
    "mu_scrub",
    "lambda_e",
    "mu_e",
    "sigma lambda_op",
    "(1 - sigma) lambda_op",
    "sigma lambda_e",
    "(1 - sigma) lambda_e",
    "sigma mu_scrub",
    "(1 - sigma) mu_scrub",
    "sigma mu_e",
    "(1 - sigma) mu_e",
)
"""The chain's rates (per hour) in the order of the forms' first axis."""

RATE_FEATURES = {
    "lambda_op": (0, 6, 7),
    "lambda_ld": (1,),
    "mu_op": (2,),
    "mu_scrub": (3, 10, 11),
    "lambda_e": (4, 8, 9),
    "mu_e": (5, 12, 13),
}
"""The features each rate drives (each feature is that rate times a factor free of it), so
``theta dQ/dtheta`` is the part of Q those features give."""

_OP, _LD, _MU, _SCRUB, _ENC, _REPAIR = range(6)
_SHARED = {_OP: (6, 7), _ENC: (8, 9), _SCRUB: (10, 11), _REPAIR: (12, 13)}
"""Each rate's (sigma x, (1 - sigma) x) features: a sector loss, and the rest going on."""

SECTOR_CAUSES = (
    "drive fails",
    "large enclosure fails",
    "small enclosure fails",
    "scrub",
    "large enclosure returns",
    "small enclosure returns",
)
"""What a sector-loss move is caused by: each goes on to its own state (the going-on chain)."""

NO_DEFECT, ONLINE, OFFLINE_LARGE, OFFLINE_SMALL = range(4)
"""The latent defect of a state: none, on a working drive online, offline in a large or a
small enclosure."""


@dataclass(frozen=True, order=True)
class DomainState:
    """One state (module docstring): enclosures ``down`` (large, small), ``offline`` drives.

    ``failed`` failed drives online, ``failed_offline`` failed drives offline, ``latent``
    the defect (:data:`NO_DEFECT`, :data:`ONLINE`, :data:`OFFLINE_LARGE`,
    :data:`OFFLINE_SMALL`); the loss state has ``is_loss``.
    """

    down: tuple[int, int]
    offline: int
    failed: int
    failed_offline: int
    latent: int
    is_loss: bool = False

    @property
    def key(self) -> tuple[tuple[int, int], int, int, int]:
        """What names the state: (down, failed, failed offline, latent)."""
        return self.down, self.failed, self.failed_offline, self.latent

    def short(self) -> str:
        """``(x+y, f, g, l)`` or ``loss``."""
        if self.is_loss:
            return "loss"
        x, y = self.down
        return f"({x}+{y},{self.failed},{self.failed_offline},{self.latent})"


@dataclass(frozen=True)
class DomainChain:
    """The chain of one shape: states (loss last) and its rates as forms over features.

    Attributes:
        parity: k.
        placement: how the group sits in enclosures.
        rebuild_streams: concurrent rebuilds (None: every failed drive at once).
        states: the transient states (the pristine one first), then the loss state.
        q_forms: ``(features, m, m)``: each off-diagonal rate (per hour) of Q, the loss
            column included, as coefficients of :data:`FEATURES`; the diagonal zero.
        group_forms: ``(features, m)``: each state's rate of whole-group loss.
        sector_forms: ``(features, m, causes)``: each state's rate of sector loss by cause
            (:data:`SECTOR_CAUSES`).
        outage_forms: ``(features, m)``: each state's rate of outages beyond parity.
        sector_targets: ``(source, cause, target)``: where the chain that goes on after a
            sector loss goes (the stripes restored, the defect gone).
        defect_free: the states without a latent defect, then the loss state.
    """

    parity: int
    placement: Placement
    rebuild_streams: int | None
    states: tuple[DomainState, ...]
    q_forms: FloatArray
    group_forms: FloatArray
    sector_forms: FloatArray
    outage_forms: FloatArray
    sector_targets: tuple[tuple[int, int, int], ...]
    defect_free: tuple[int, ...]

    @property
    def size(self) -> int:
        """States, the loss state included (m)."""
        return len(self.states)

    @property
    def loss_index(self) -> int:
        """The loss state's index (the last)."""
        return len(self.states) - 1


def _serves(parity: int, offline: int, failed: int, latent: int) -> bool:
    """The group serves: k missing at most, one fewer with the defect online unless exposed."""
    missing = offline + failed
    if latent == ONLINE:
        return missing + 1 <= parity or (offline == parity and failed == 0)
    return missing <= parity


def _states(parity: int, p: Placement) -> list[DomainState]:
    """Every state the group serves in (module docstring), enclosures down fewest first."""
    downs = sorted(
        ((x, y) for x in range(p.large + 1) for y in range(p.small + 1)),
        key=lambda c: (c[0] * p.large_size + c[1] * p.small_size, c),
    )
    found = []
    for x, y in downs:
        d = x * p.large_size + y * p.small_size
        for f in range(parity - d + 1):
            for g in range(d + 1):
                for latent, room in ((NO_DEFECT, True), (ONLINE, True), (2, x > 0), (3, y > 0)):
                    holder_offline = latent in (OFFLINE_LARGE, OFFLINE_SMALL)
                    if room and g + holder_offline <= d and _serves(parity, d, f, latent):
                        found.append(DomainState((x, y), d, f, g, latent))
    return found


def _draws(pool: int, size: int, failed: int, holder: float) -> list[tuple[int, int, float]]:
    """(j failed, h holder, probability) of the ``size`` drives an enclosure holds.

    The holder of the defect is among them with probability ``holder``; the other drives are
    drawn alike from ``pool`` (the holder not in it), ``failed`` of them failed.
    """
    out = []
    for h, chance in ((0, 1.0 - holder), (1, holder)):
        if chance <= 0:
            continue
        take = size - h
        total = comb(pool, take)
        for j in range(min(failed, take) + 1):
            ways = comb(failed, j) * comb(pool - failed, take - j)
            if ways:
                out.append((j, h, chance * ways / total))
    return out


class _Builder:
    """Collects the forms of one chain (see :func:`domain_chain`)."""

    def __init__(self, parity: int, placement: Placement, states: list[DomainState]) -> None:
        self.parity, self.placement = parity, placement
        self.index = {s.key: i for i, s in enumerate(states)}
        size = len(states) + 1
        self.loss = size - 1
        self.q = np.zeros((len(FEATURES), size, size))
        self.group = np.zeros((len(FEATURES), size))
        self.sectors = np.zeros((len(FEATURES), size, len(SECTOR_CAUSES)))
        self.outage = np.zeros((len(FEATURES), size))
        self.targets: list[tuple[int, int, int]] = []

    def offline(self, down: tuple[int, int]) -> int:
        return down[0] * self.placement.large_size + down[1] * self.placement.small_size

    def land(
        self,
        i: int,
        target: tuple[tuple[int, int], int, int, int],
        rate: tuple[int, float],
        cause: int,
        outage: bool = False,
    ) -> None:
        """A move out of state ``i`` at ``rate`` (feature, count) to ``target`` or past it.

        Past parity a whole-group loss (an outage instead for an enclosure's failure); with
        k missing and the defect online while a rebuild runs, its stripes (a sector loss of
        ``cause``; sigma of it, the rest going on without the defect).
        """
        feature, count = rate
        down, f, g, latent = target
        missing = self.offline(down) + f
        if missing > self.parity:
            if outage:
                self.outage[feature, i] += count
            else:
                self.q[feature, i, self.loss] += count
                self.group[feature, i] += count
        elif latent == ONLINE and missing == self.parity and f >= 1:
            share, rest = _SHARED[feature]
            kept = self.index[(down, f, g, NO_DEFECT)]
            self.q[share, i, self.loss] += count
            self.sectors[share, i, cause] += count
            self.q[rest, i, kept] += count
            if (i, cause, kept) not in self.targets:
                self.targets.append((i, cause, kept))
        else:
            self.q[feature, i, self.index[target]] += count


def _drive_moves(b: _Builder, s: DomainState, streams: int | None) -> None:
    """Failures, defects, rebuilds and the scrub out of ``s`` (module docstring)."""
    i = b.index[s.key]
    f, g, online = s.failed, s.failed_offline, s.latent == ONLINE
    working = b.placement.drives - s.offline - f
    b.land(i, (s.down, f + 1, g, s.latent), (_OP, working - online), 0)
    if online:  # the holder fails: its defect goes with it
        b.land(i, (s.down, f + 1, g, NO_DEFECT), (_OP, 1.0), 0)
    elif s.offline + f < b.parity or (s.offline == b.parity and f == 0):
        b.land(i, (s.down, f, g, ONLINE), (_LD, working), 0)
    if f:
        b.land(i, (s.down, f - 1, g, s.latent), (_MU, concurrent_rebuilds(f, streams)), 0)
    if online and f == 0:
        if s.offline < b.parity:
            b.land(i, (s.down, 0, g, NO_DEFECT), (_SCRUB, 1.0), 3)
        else:  # exposed: the scrub reads the stripes that have no parity left
            share, rest = _SHARED[_SCRUB]
            b.q[share, i, b.loss] += 1.0
            b.sectors[share, i, 3] += 1.0
            kept = b.index[(s.down, 0, g, NO_DEFECT)]
            b.q[rest, i, kept] += 1.0
            b.targets.append((i, 3, kept))


def _enclosure_moves(b: _Builder, s: DomainState) -> None:
    """An enclosure of the group fails (large, then small) or returns (module docstring)."""
    i = b.index[s.key]
    p = b.placement
    x, y = s.down
    f, g, latent = s.failed, s.failed_offline, s.latent
    kinds = (
        (x, p.large, p.large_size, (x + 1, y), (x - 1, y), OFFLINE_LARGE, 1),
        (y, p.small, p.small_size, (x, y + 1), (x, y - 1), OFFLINE_SMALL, 2),
    )
    online = p.drives - s.offline
    holder_online = latent == ONLINE
    holder_offline = latent in (OFFLINE_LARGE, OFFLINE_SMALL)
    for down, count, size, worse, better, own, cause in kinds:
        if down < count:  # one of the enclosures up fails: its drives are online drives alike
            chance = size / online if holder_online else 0.0
            for j, h, share in _draws(online - holder_online, size, f, chance):
                after = own if h else latent
                rate = (_ENC, (count - down) * share)
                b.land(i, (worse, f - j, g + j, after), rate, cause, outage=True)
        if down:  # one of those down returns: the holder's own with 1 / down
            chance = 1.0 / down if latent == own else 0.0
            for j, h, share in _draws(s.offline - holder_offline, size, g, chance):
                after = ONLINE if h else latent
                b.land(i, (better, f + j, g - j, after), (_REPAIR, down * share), cause + 3)


MAX_STATES = 150
"""Most states an enclosure chain may have: parity 5 with one drive per enclosure has 133,
parity 8 has 415 (40 s an evaluation); the cost grows as the cube of the states."""


def check_domain_size(parity: int, placement: Placement) -> None:
    """Raise ValueError when the chain of ``parity`` and ``placement`` is too large to evaluate."""
    size = len(_states(parity, placement)) + 1
    if size > MAX_STATES:
        raise ValueError(
            f"parity {parity} over {placement.text()} (enclosures x drives) makes an enclosure "
            f"chain of {size} states, more than the {MAX_STATES} planner evaluates (parity up "
            "to 5 with one drive per enclosure): put more drives of a group in each enclosure "
            "or use less parity"
        )


@cache
def domain_chain(parity: int, placement: Placement, rebuild_streams: int | None = 1) -> DomainChain:
    """The enclosure chain of a group with ``parity`` parity drives placed by ``placement``.

    Built from the rules of the module docstring, cached by shape (one per parity,
    placement and rebuild streams). Raises ValueError unless ``0 < k < N``, or for a chain
    of more than :data:`MAX_STATES` states.
    """
    if not 0 < parity < placement.drives:
        raise ValueError(f"a group of {placement.drives} drives cannot hold {parity} parity drives")
    check_rebuild_streams(rebuild_streams)
    check_domain_size(parity, placement)
    states = _states(parity, placement)
    b = _Builder(parity, placement, states)
    for s in states:
        _drive_moves(b, s, rebuild_streams)
        _enclosure_moves(b, s)
    loss = DomainState((-1, -1), -1, -1, -1, -1, is_loss=True)
    arrays = (b.q, b.group, b.sectors, b.outage)
    for array in arrays:
        array.setflags(write=False)
    defect_free = tuple(i for i, s in enumerate(states) if s.latent == NO_DEFECT)
    return DomainChain(
        parity,
        placement,
        rebuild_streams,
        (*states, loss),
        *arrays,
        sector_targets=tuple(b.targets),
        defect_free=(*defect_free, b.loss),
    )
