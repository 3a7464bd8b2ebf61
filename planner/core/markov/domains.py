"""The enclosure chain: a RAID group whose drives share failure domains (docs/domains.md).

Shelves, controllers, cables and power feeds take several drives offline at once (Jiang,
Hu, Zhou and Kanevsky, "Are disks the dominant contributor for storage failures?", FAST
2008). A group of N drives with k parity drives sits in enclosures by a placement
(:class:`~planner.core.markov.enclosures.Placement`: ``large`` enclosures holding ``L`` of
its drives, ``small`` holding ``S``); each enclosure fails at ``lambda_e`` per hour and is
repaired on its own at ``mu_e = 1 / repair_hours``.

**What "down" means.** A failed enclosure makes its drives *unavailable until it is
repaired*; they come back with their data and need no rebuild (a shelf, controller or cable
fault seldom destroys the drives behind it). States ``(c, f, l)``: ``c = (x, y)`` large and
small enclosures of the group down, ``d = x L + y S`` drives offline; f drives failed and
being rebuilt; l the latent defect: 0 none, 1 on a drive online, 2 (3) on a drive offline in
a large (small) enclosure. While ``d + f <= k`` the group serves with ``k - d`` parity drives
left; its offline drives go stale as it is written, so it loses data as the paper's chain
does with ``k - d`` parity. With ``W = N - d - f - [l = 1]`` working online drives without
the defect:

* a drive fails at ``W lambda_op``: to ``(c, f + 1, l)``; when that leaves no parity for the
  stripes, a whole-group loss (no defect online: the writes since the outage began cannot be
  rebuilt) or a sector loss (the defect online: its stripes; thinned by a pool's sigma, the
  rest to ``(c, f + 1, 0)``, as in :mod:`planner.core.markov.chain`); the online defect's
  holder fails at ``lambda_op`` to ``(c, f + 1, 0)``;
* a latent defect appears on an online drive at ``(N - d - f) lambda_ld`` while ``f < k - d``
  (or ``d = k``, ``f = 0``: below); one defect is tracked, so an offline one is then dropped;
* rebuilds run at ``min(f, streams) mu_op``; the scrub finds an online defect at ``mu_scrub``
  when no drive is failed, and repairs it while parity is left;
* an enclosure of the group fails at ``lambda_e`` each. It holds the online defect's holder
  with probability ``size / (N - d)`` (the holder is any online drive alike): then the
  defect goes offline with it. To ``c'`` with ``d'`` drives offline while ``d' + f`` (plus
  the online defect) stays within k. An online defect with ``d' + f = k``: a running
  rebuild (``f >= 1``) reads its stripes, a sector loss (sigma of it in a pool, the rest to
  ``(c', f, 0)``); with no rebuild (``f = 0``) the defect waits **exposed** in ``(c', 0, 1)``,
  ``d' = k``, lost only if the scrub finds it before the enclosure returns (sigma of it; any
  drive failure there loses the group). When ``d' + f > k``: an **outage beyond parity**:
  the group stops serving, nothing is written, no data is lost. The chain does not move
  (the group resumes as it was when the enclosure returns; its idle drives' failures during
  the repair's hours are neglected), and the move counts in P(unavailable)
  (:mod:`planner.core.markov.domain_figures`);
* a down enclosure is repaired at ``mu_e``; an offline defect comes back online with its own.

Conventions, so that every path agrees (the tests' independent chain and this one): failed
drives sit in enclosures that stay up (an outage takes working drives offline; the tests'
enumeration of every drive and enclosure, where a failed drive may sit in the failing
enclosure, measures the difference); drives offline neither fail nor grow defects.

The generator is linear in the rates, so the chain is kept as coefficient arrays over
:data:`FEATURES` (each a rate, or a rate times sigma or 1 - sigma): ``Q = features @ forms``
for a whole stack at once, every coefficient non-negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import check_rebuild_streams, concurrent_rebuilds
from planner.core.markov.enclosures import Placement

FloatArray = npt.NDArray[np.float64]

__all__ = ["FEATURES", "SECTOR_CAUSES", "DomainChain", "DomainState", "domain_chain"]

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
)
"""The chain's rates (per hour) in the order of the forms' first axis."""

_OP, _LD, _MU, _SCRUB, _ENC, _REPAIR = range(6)
_OP_SHARE, _OP_REST, _ENC_SHARE, _ENC_REST, _SCRUB_SHARE, _SCRUB_REST = range(6, 12)

SECTOR_CAUSES = ("drive", "large enclosure", "small enclosure", "scrub")
"""What a sector-loss move is caused by: each goes on to its own state (the going-on chain)."""

NO_DEFECT, ONLINE, OFFLINE_LARGE, OFFLINE_SMALL = range(4)
"""The latent defect of a state: none, on an online drive, offline in a large or small one."""


@dataclass(frozen=True, order=True)
class DomainState:
    """One state: ``down`` = (large, small) enclosures down, ``offline`` drives in them.

    ``failed`` drives failed and being rebuilt; ``latent`` the defect (:data:`NO_DEFECT`,
    :data:`ONLINE`, :data:`OFFLINE_LARGE`, :data:`OFFLINE_SMALL`); the loss state has
    ``is_loss``.
    """

    down: tuple[int, int]
    offline: int
    failed: int
    latent: int
    is_loss: bool = False

    def exposed(self, parity: int) -> bool:
        """An outage left no parity and a latent defect online (no rebuild runs: f = 0)."""
        return not self.is_loss and self.offline == parity and self.latent == ONLINE

    def short(self) -> str:
        """``(x+y, f, l)`` or ``loss``."""
        if self.is_loss:
            return "loss"
        return f"({self.down[0]}+{self.down[1]},{self.failed},{self.latent})"


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


def _states(parity: int, p: Placement) -> list[DomainState]:
    """Every state the group serves in (module docstring), enclosures down fewest first."""
    downs = sorted(
        ((x, y) for x in range(p.large + 1) for y in range(p.small + 1)),
        key=lambda c: (c[0] * p.large_size + c[1] * p.small_size, c),
    )
    found = []
    for x, y in downs:
        offline = x * p.large_size + y * p.small_size
        for f in range(parity - offline + 1):
            for latent in range(4):
                ok = {
                    NO_DEFECT: True,
                    ONLINE: offline + f + 1 <= parity or (offline == parity and f == 0),
                    OFFLINE_LARGE: x >= 1,
                    OFFLINE_SMALL: y >= 1,
                }[latent]
                if ok:
                    found.append(DomainState((x, y), offline, f, latent))
    return found


class _Builder:
    """Collects the forms of one chain (see :func:`domain_chain`)."""

    def __init__(self, parity: int, placement: Placement, states: list[DomainState]) -> None:
        self.parity, self.placement = parity, placement
        self.index = {(s.down, s.failed, s.latent): i for i, s in enumerate(states)}
        size = len(states) + 1
        self.loss = size - 1
        self.q = np.zeros((len(FEATURES), size, size))
        self.group = np.zeros((len(FEATURES), size))
        self.sectors = np.zeros((len(FEATURES), size, len(SECTOR_CAUSES)))
        self.outage = np.zeros((len(FEATURES), size))
        self.targets: list[tuple[int, int, int]] = []

    def state(self, down: tuple[int, int], failed: int, latent: int) -> int:
        return self.index[(down, failed, latent)]

    def move(self, source: int, target: int, feature: int, count: float) -> None:
        self.q[feature, source, target] += count

    def group_loss(self, source: int, feature: int, count: float) -> None:
        self.move(source, self.loss, feature, count)
        self.group[feature, source] += count

    def sector_loss(
        self, source: int, cause: int, kept: int, features: tuple[int, int], count: float
    ) -> None:
        """Sector loss at the first feature's rate, the rest (the second) on to ``kept``."""
        self.move(source, self.loss, features[0], count)
        self.sectors[features[0], source, cause] += count
        self.move(source, kept, features[1], count)
        if (source, cause, kept) not in self.targets:
            self.targets.append((source, cause, kept))


def _drive_moves(b: _Builder, s: DomainState, streams: int | None) -> None:
    """Failures, defects, rebuilds and the scrub out of ``s`` (module docstring)."""
    i = b.state(s.down, s.failed, s.latent)
    left = b.parity - s.offline
    f, online = s.failed, s.latent == ONLINE
    online_drives = b.placement.drives - s.offline
    if s.exposed(b.parity):
        b.group_loss(i, _OP, online_drives)  # no parity left: any failure loses the group
        b.sector_loss(i, 3, b.state(s.down, 0, 0), (_SCRUB_SHARE, _SCRUB_REST), 1.0)
        return
    working = online_drives - f - online
    if f + 1 + online <= left:
        b.move(i, b.state(s.down, f + 1, s.latent), _OP, working)
    elif not online:
        b.group_loss(i, _OP, working)
    else:
        b.sector_loss(i, 0, b.state(s.down, f + 1, 0), (_OP_SHARE, _OP_REST), working)
    if online:
        b.move(i, b.state(s.down, f + 1, 0), _OP, 1.0)  # the holder: its defect goes with it
    elif f < left or left == 0:
        b.move(i, b.state(s.down, f, ONLINE), _LD, online_drives - f)
    if f > 0:
        b.move(i, b.state(s.down, f - 1, s.latent), _MU, concurrent_rebuilds(f, streams))
    if f == 0 and online:
        b.move(i, b.state(s.down, 0, NO_DEFECT), _SCRUB, 1.0)


def _enclosure_fails(
    b: _Builder, s: DomainState, after: tuple[int, int], size: int, up: int, kind: int
) -> None:
    """One of the ``up`` enclosures of ``size`` drives (``kind`` 1 large, 2 small) fails."""
    i = b.state(s.down, s.failed, s.latent)
    offline, f = s.offline + size, s.failed
    if s.latent != ONLINE:
        if offline + f <= b.parity:
            b.move(i, b.state(after, f, s.latent), _ENC, up)
        else:
            b.outage[_ENC, i] += up
        return
    holds = size / (b.placement.drives - s.offline)  # it holds the defect's drive
    if offline + f <= b.parity:
        offline_defect = OFFLINE_LARGE if kind == 1 else OFFLINE_SMALL
        b.move(i, b.state(after, f, offline_defect), _ENC, up * holds)
    else:
        b.outage[_ENC, i] += up * holds
    rest = up * (1.0 - holds)
    if offline + f + 1 <= b.parity or (offline == b.parity and f == 0):
        b.move(i, b.state(after, f, ONLINE), _ENC, rest)
    elif offline + f == b.parity:  # the running rebuild reads the defect's stripes
        b.sector_loss(i, kind, b.state(after, f, NO_DEFECT), (_ENC_SHARE, _ENC_REST), rest)
    else:
        b.outage[_ENC, i] += rest


def _enclosure_moves(b: _Builder, s: DomainState) -> None:
    """An enclosure of the group fails (large, then small) or is repaired."""
    p = b.placement
    x, y = s.down
    if x < p.large:
        _enclosure_fails(b, s, (x + 1, y), p.large_size, p.large - x, 1)
    if y < p.small:
        _enclosure_fails(b, s, (x, y + 1), p.small_size, p.small - y, 2)
    i = b.state(s.down, s.failed, s.latent)
    for down, back, own in ((x, (x - 1, y), OFFLINE_LARGE), (y, (x, y - 1), OFFLINE_SMALL)):
        if not down:
            continue
        if s.latent == own:  # the defect's own enclosure brings it back online
            b.move(i, b.state(back, s.failed, ONLINE), _REPAIR, 1.0)
            if down > 1:
                b.move(i, b.state(back, s.failed, own), _REPAIR, float(down - 1))
        else:
            b.move(i, b.state(back, s.failed, s.latent), _REPAIR, float(down))


@cache
def domain_chain(parity: int, placement: Placement, rebuild_streams: int | None = 1) -> DomainChain:
    """The enclosure chain of a group with ``parity`` parity drives placed by ``placement``.

    Built from the rules of the module docstring, cached by shape (one per parity,
    placement and rebuild streams). Raises ValueError unless ``0 < k < N``.
    """
    if not 0 < parity < placement.drives:
        raise ValueError(f"a group of {placement.drives} drives cannot hold {parity} parity drives")
    check_rebuild_streams(rebuild_streams)
    states = _states(parity, placement)
    b = _Builder(parity, placement, states)
    for s in states:
        _drive_moves(b, s, rebuild_streams)
        _enclosure_moves(b, s)
    loss = DomainState((-1, -1), -1, -1, -1, is_loss=True)
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
