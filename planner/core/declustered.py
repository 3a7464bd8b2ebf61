"""Declustered (distributed-spare) RAID pools: OpenZFS dRAID, IBM distributed RAID, ADAPT.

A declustered pool of ``C`` drives (``children``) stores stripes of ``d`` data and ``p``
parity blocks (width ``w = d + p``), each stripe on ``w`` drives chosen so that every pair of
drives shares about as many stripes as any other, and reserves the capacity of ``s``
drives (``spares``) spread over all of them. The layout rules follow the OpenZFS dRAID
documentation ("dRAID", Basic Concepts, https://openzfs.github.io/openzfs-docs/Basic%20Concepts/dRAID%20Howto.html):
``draid<p>:<d>d:<C>c:<s>s`` with ``d + p <= C - s``, and usable capacity
``(C - s) x d / (d + p)`` drives.

The reliability model is the n+k chain of :mod:`planner.core.model` on all ``C`` drives (a
distributed spare is capacity, not an idle drive: every child carries data and can fail)
with the stripe's parity ``p``, and a faster rebuild. Derivation of the speed-up, under
these assumptions:

1. A traditional rebuild of one drive of capacity ``D`` writes ``D`` onto one replacement
   drive; that drive's bandwidth ``B`` bounds it: ``T = D / B`` (the scenario's
   ``rebuild_hours``).
2. A declustered rebuild to a distributed spare reconstructs the same ``D``: each lost block
   reads ``d`` surviving blocks of its stripe and writes one block into spare space. That is
   ``(d + 1) D`` of I/O, spread evenly over the ``C - 1`` surviving drives (the mapping
   spreads it evenly: OpenZFS "regardless of which drive has failed, the rebuild IO (both
   read and write) will distribute evenly among all surviving drives"), each at the same
   bandwidth ``B``, reads and writes costing alike: ``T' = (d + 1) D / ((C - 1) B)``.
3. So ``T / T' = (C - 1) / (d + 1)`` (:func:`rebuild_speedup`). Without a distributed spare
   (``s = 0``) the data is rebuilt onto a replacement drive, the traditional way: no
   speed-up.

The pool's bandwidth is shared by every rebuild running in it, so the chain rebuilds one
drive at a time at the declustered rate whatever ``restore.parallel_rebuilds`` says (the
pool restores drives at the same total rate with one or several failed). The later
rebalance onto a replacement drive runs with full redundancy and does not enter the chain.

What is lost: ``p + 1`` overlapping failures lose only the stripes that span all of them,
a fraction ``C(C - p - 1, w - p - 1) / C(C, w)`` of the pool's stripes
(:func:`fraction_lost_on_overlap`; 1 for a traditional group, where every stripe spans every
drive). A latent defect loses sectors only where its stripe has lost all redundancy: with
``p`` drives down, the defect's stripe holds all of them with probability sigma
(:func:`defect_stripe_share`), and the chain thins its sector-loss move by that share
(:mod:`planner.core.model`); otherwise the rebuild reads and repairs the defect.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction


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


def rebuild_speedup(children: int, data: int, spares: int) -> float:
    """How many times faster a declustered rebuild is: ``(C - 1) / (d + 1)``; 1 without spares.

    See the module docstring for the derivation and its assumptions. Never below 1: a pool
    narrower than ``d + 2`` drives rebuilds no slower than a traditional group.
    """
    if spares == 0:
        return 1.0
    return max(1.0, (children - 1) / (data + 1))


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
