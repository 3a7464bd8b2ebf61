"""Declustered (distributed-spare) RAID pools: OpenZFS dRAID, IBM distributed RAID, ADAPT.

A declustered pool of ``C`` drives (``children``) stores stripes of ``d`` data and ``p``
parity blocks (width ``w = d + p``), each stripe on ``w`` drives chosen so that every pair of
drives shares about as many stripes as any other, and reserves the capacity of ``s``
drives (``spares``) spread over all of them. The layout rules follow the OpenZFS dRAID
documentation ("dRAID", Basic Concepts, https://openzfs.github.io/openzfs-docs/Basic%20Concepts/dRAID%20Howto.html):
``draid<p>:<d>d:<C>c:<s>s`` with ``d + p <= C - s``, and usable capacity
``(C - s) x d / (d + p)`` drives.

The reliability model is the n+k chain of :mod:`planner.core.markov.chain` on all ``C`` drives (a
distributed spare is capacity, not an idle drive: every child carries data and can fail)
with the stripe's parity ``p``, and a faster rebuild (:func:`sequential_resilver_fraction`).
What limits a sequential resilver onto a distributed spare:

1. A traditional rebuild of one drive of capacity ``D`` writes ``D`` onto one replacement
   drive at its rate ``B``: ``T = D / B`` (the scenario's ``rebuild_hours``).
2. The sequential resilver reads every stripe of the failed drive as a scrub does, all
   ``w - 1`` surviving blocks of its width ``w = d + p``, and writes the lost block into
   spare space: ``w D`` of I/O, spread evenly over the ``C - 1`` survivors (OpenZFS: "the
   rebuild IO (both read and write) will distribute evenly among all surviving drives"),
   ``w D / (C - 1)`` for each (:func:`resilver_io_share`).
3. A survivor moves its share more slowly than a drive streams one rebuild: the reads and
   the spare writes interleave (cost ``a`` per byte, against 1 for the traditional
   rebuild's writes), and every stripe's I/O is split over its ``d`` data columns, so a
   wider stripe issues more, smaller I/Os per byte (a per-I/O overhead that equals the
   transfer time at ``d = d0``). So ``T' = T x w / (C - 1) x a x (1 + d / d0)``.
4. ``a`` and ``d0`` (:data:`RESILVER_IO_COST`, :data:`RESILVER_OVERHEAD_DATA_WIDTH`) are
   fitted to OpenZFS's measurements: the dRAID page's chart "dRAID Sequential Resilver -
   Hours to Replace a 16TB Disk, 90 HDDs, Single Distributed Spare" (OpenZFS documentation,
   Basic Concepts, dRAID, https://openzfs.github.io/openzfs-docs/Basic%20Concepts/dRAID%20Howto.html),
   where a traditional spare takes about 29 h. With them every one of the chart's 48 points
   (d 1 to 16, parity 1 to 3) is within -16 % to +19 %
   (tests/core/test_declustered_rebuild.py). The time stays proportional to the scenario's
   traditional rebuild, so capacity, rate and load flow through.
5. Without a distributed spare (``s = 0``) the data is rebuilt onto a replacement drive, the
   traditional way. A pool narrow enough for the model to be slower than that is given
   the traditional time (the chart has no such pool).

The pool's bandwidth is shared by every rebuild running in it, so the chain rebuilds one
drive at a time at the declustered rate whatever ``restore.parallel_rebuilds`` says. The
ZFS event daemon starts the resilver onto a distributed spare at once: a wait for a
replacement drive delays only the later rebalance, done with full redundancy, so it does
not enter the pool's rebuild time unless every spare is taken (:func:`pool_rebuild_hours`).

What is lost: ``p + 1`` overlapping failures lose only the stripes that span all of them,
a fraction ``C(C - p - 1, w - p - 1) / C(C, w)`` of the pool's stripes
(:func:`fraction_lost_on_overlap`; 1 for a traditional group, where every stripe spans every
drive). A critical rebuild (``p`` drives down) has to read only the stripes holding all
``p`` (:func:`critical_rebuild_drives`). A latent defect loses sectors only where its
stripe has lost all redundancy: with ``p`` drives down, the defect's stripe holds all of
them with probability sigma
(:func:`defect_stripe_share`), and the chain thins its sector-loss move by that share
(:mod:`planner.core.markov.chain`); otherwise the rebuild reads and repairs the defect.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

MAX_CHILDREN = 255
"""Most drives in one pool: OpenZFS dRAID allows up to 255 children."""


@dataclass(frozen=True)
class Declustered:
    """The stripe of a declustered pool: ``data`` blocks per stripe and distributed spares.

    The pool's drives (``children``) and parity are the layout's ``group_size`` and
    ``parity``.
    """

    data: int
    spares: int


def drive_count(count: Fraction) -> float:
    """Drives as tables show them: a whole number as an int, a pool's fraction as a float."""
    return count.numerator if count.denominator == 1 else float(count)


def check_declustered(parity: int, children: int, data: int, spares: int) -> None:
    """Raise ValueError unless the dRAID rules hold: ``d >= 1, s >= 0, d + p <= C - s``."""
    if data < 1:
        raise ValueError(f"a declustered stripe needs at least one data block, got {data}")
    if spares < 0:
        raise ValueError(f"distributed spares must be >= 0, got {spares}")
    if data + parity > children - spares:
        raise ValueError(
            f"a stripe of {data} data + {parity} parity needs at least {data + parity} drives "
            f"besides the {spares} spare(s): children must be at least "
            f"{data + parity + spares}, got {children}"
        )


def data_capacity_drives(parity: int, children: int, data: int, spares: int) -> Fraction:
    """Drives' worth of data a pool holds: ``(C - s) x d / (d + p)``, exact (OpenZFS)."""
    check_declustered(parity, children, data, spares)
    return Fraction((children - spares) * data, data + parity)


def children_holding(data_drives: int, parity: int, data: int, spares: int, pools: int) -> int:
    """The fewest children of each of ``pools`` pools that together hold ``data_drives``.

    The least ``C`` with ``pools x (C - s) x d / (d + p) >= data_drives``, and at least a
    stripe and the spares; it may be above :data:`MAX_CHILDREN` (the caller says so).
    """
    per_pool = Fraction(data_drives, pools) * Fraction(data + parity, data)
    return max(spares + math.ceil(per_pool), data + parity + spares)


RESILVER_IO_COST = 1.35
"""``a``: what a byte of a sequential resilver's I/O costs a survivor, against a byte of a
traditional rebuild's writes (fitted to the OpenZFS chart;
:mod:`planner.core.arrays.declustered`)."""

RESILVER_OVERHEAD_DATA_WIDTH = 13.4
"""``d0``: the data blocks per stripe at which a survivor's per-I/O overhead equals its
transfer time (fitted to the OpenZFS chart with :data:`RESILVER_IO_COST`)."""


def resilver_io_share(parity: int, children: int, data: int) -> Fraction:
    """I/O each survivor does to resilver one failed drive, in failed drives' worth.

    Every stripe of the failed drive reads its ``w - 1`` surviving blocks and writes one
    block of spare space: ``w`` blocks per lost block, spread evenly over the ``C - 1``
    survivors: ``w / (C - 1)``, exact.
    """
    return Fraction(data + parity, children - 1)


def sequential_resilver_fraction(parity: int, children: int, data: int, spares: int) -> float:
    """A pool's rebuild time over a traditional rebuild's: ``w / (C - 1) x a x (1 + d / d0)``.

    1 without a distributed spare (the rebuild goes onto a replacement drive), and never
    above 1 (see the module docstring for the model, its two fitted parameters and its
    source, OpenZFS's measured sequential resilvers).
    """
    if spares == 0:
        return 1.0
    share = float(resilver_io_share(parity, children, data))
    cost = RESILVER_IO_COST * (1.0 + data / RESILVER_OVERHEAD_DATA_WIDTH)
    return min(1.0, share * cost)


def rebuild_speedup(parity: int, children: int, data: int, spares: int) -> float:
    """How many times faster a declustered rebuild is than a traditional one (at least 1).

    The reciprocal of :func:`sequential_resilver_fraction`.
    """
    return 1.0 / sequential_resilver_fraction(parity, children, data, spares)


def iops_drives(parity: int, children: int, data: int, spares: int) -> int:
    """Drives' worth of small random IOPS a pool serves: ``floor((C - s) / (d + p))``.

    A small random I/O, read or write, is one stripe I/O across the ``d + p`` drives of its
    stripe, so each stripe's worth of drives serves about one drive's IOPS. OpenZFS
    documentation, dRAID page: "Delivered random IOPS can be reasonably approximated as
    floor((N-S)/(D+P))*<single-drive-IOPS>" ("performance is similar to raidz since for
    any read all D data disks must be accessed").
    """
    check_declustered(parity, children, data, spares)
    return (children - spares) // (data + parity)


def critical_rebuild_drives(parity: int, children: int, data: int, spares: int) -> Fraction:
    """Drives' worth of data a critical rebuild reads (``p`` drives down), exact.

    Only the stripes holding all ``p`` failed drives are left without redundancy; the
    rebuild reads their ``d`` surviving blocks. Each row of the pool (one block per drive)
    holds ``(C - s) / w`` stripes, each holding a given set of ``p`` drives with chance
    ``C(w, p) / C(C, p) = prod_{i<p} (w - i) / (C - i)``, whatever the permutation, so
    the rebuild reads ``d (C - s) / w x prod_{i<p} (w - i) / (C - i)`` drives' worth (per
    drive of capacity), on average over which drives failed. A traditional group
    (``C = w``, ``s = 0``) reads its ``N - k = d`` surviving drives whole. For
    ``draid2:8d:48c:2s``: 8 x 46 / 10 x 90 / 2256 = 1.47 drives, against 46.
    """
    check_declustered(parity, children, data, spares)
    width = data + parity
    share = Fraction(1)
    for i in range(parity):
        share *= Fraction(width - i, children - i)
    return Fraction(data * (children - spares), width) * share


def spares_all_taken(spares: int, offered_load: float) -> float:
    """Erlang's loss formula ``B(s, A)``: the chance that all ``s`` spares are taken.

    Failures arrive as a Poisson stream and each holds a spare for a while; ``A`` is the
    arrival rate times the mean holding time (erlangs). ``B(0, A) = 1`` and
    ``B(k, A) = A B(k-1, A) / (k + A B(k-1, A))`` (the stable recursion).
    """
    if spares < 0:
        raise ValueError(f"spares must be >= 0, got {spares}")
    if not (math.isfinite(offered_load) and offered_load >= 0):
        raise ValueError(f"offered_load must be >= 0, got {offered_load!r}")
    taken = 1.0
    for k in range(1, spares + 1):
        taken = offered_load * taken / (k + offered_load * taken)
    return taken


def pool_rebuild_hours(
    rebuild_hours: float,
    delay_hours: float,
    op_failures_per_hour: float,
    *,
    parity: int,
    children: int,
    data: int,
    spares: int,
) -> float:
    """Mean hours until a pool has restored a failed drive's redundancy.

    Args:
        rebuild_hours: the traditional rebuild onto one drive, without any wait (h).
        delay_hours: the wait for a replacement drive (h).
        op_failures_per_hour: failures per drive-hour, lambda_op.
        parity: parity blocks per stripe, p.
        children: drives in the pool, C.
        data: data blocks per stripe, d.
        spares: distributed spares, s.

    Without a distributed spare the failed drive waits for its replacement and is rebuilt
    onto it: ``delay + T``. With one, the ZFS event daemon starts the sequential resilver
    at once (``T' = T x`` :func:`sequential_resilver_fraction`); the spare stays taken until
    the replacement has arrived and the rebalance onto it, a traditional resilver, is done:
    ``max(delay, T') + T``. A drive that fails while all ``s`` spares are taken (chance
    :func:`spares_all_taken` of ``C lambda_op`` failures an hour, each holding a spare that
    long) waits like a pool without one. The mean is the mix of the two.
    """
    if spares == 0:
        return delay_hours + rebuild_hours
    resilver = rebuild_hours * sequential_resilver_fraction(parity, children, data, spares)
    held = max(delay_hours, resilver) + rebuild_hours
    taken = spares_all_taken(spares, children * op_failures_per_hour * held)
    return (1.0 - taken) * resilver + taken * (delay_hours + rebuild_hours)


def fraction_lost_on_overlap(parity: int, children: int, data: int) -> float:
    """Expected share of the pool's stripes lost when ``p + 1`` drives are down together.

    A stripe of width ``w = d + p`` on ``w`` of the ``C`` drives, spread uniformly, holds a
    given set of ``p + 1`` drives with probability ``C(C - p - 1, w - p - 1) / C(C, w)``
    ``= prod_{i=0..p} (w - i) / (C - i)``. 1 when ``w = C`` (a traditional group).
    """
    width = data + parity
    if width > children:
        raise ValueError(f"a stripe of {width} drives does not fit in {children}")
    return math.comb(children - parity - 1, width - parity - 1) / math.comb(children, width)


def defect_stripe_share(parity: int, children: int, data: int) -> float:
    """sigma: the chance a latent defect's stripe holds all ``p`` failed drives (issue 20).

    The stripe of width ``w = d + p`` holds the defect's drive and ``w - 1`` of the other
    ``C - 1``, spread uniformly (OpenZFS dRAID: every pair of children shares about as many
    stripes as any other), so it holds a given set of ``p`` failed drives with probability
    ``C(C - 1 - p, w - 1 - p) / C(C - 1, w - 1) = prod_{i=0..p-1} (w - 1 - i) / (C - 1 - i)``.
    1 when ``w = C`` (a traditional group). Only then is the defect's sector lost; in the
    other stripes the defect is one more erasure with redundancy left, read and repaired by
    the rebuild.
    """
    width = data + parity
    if width > children:
        raise ValueError(f"a stripe of {width} drives does not fit in {children}")
    return math.prod((width - 1 - i) / (children - 1 - i) for i in range(parity))
