"""A dRAID pool's stripe share sigma (issue 20), from an enumeration of real layouts.

A latent defect loses sectors, once ``p`` drives are down, only where its stripe holds all
``p`` of them. The chain takes that share as sigma = prod_{i<p} (w-1-i)/(C-1-i). Checked
here against two layouts whose every stripe is listed:

* every w-subset of the C drives (the uniform spread the closed form assumes);
* a rotated-permutation layout in the manner of OpenZFS dRAID ("dRAID", OpenZFS
  documentation, Basic Concepts, https://openzfs.github.io/openzfs-docs/Basic%20Concepts/dRAID%20Howto.html:
  each row of the pool is a permutation of the children, the distributed spare space at its
  end, the rest cut into groups of d + p; the rows rotate the permutations over the drives).

For each set F of p failed drives, the share is the data blocks on the surviving drives
whose stripe holds all of F, over all data blocks on the surviving drives; averaged over
every F (drives fail alike) it must be sigma exactly (exact fractions).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from planner.core.arrays.declustered import Declustered, defect_stripe_share
from planner.core.arrays.layouts import Layout


def _share_by_enumeration(children: int, parity: int, stripes: list[tuple[int, ...]]) -> Fraction:
    blocks = Counter(drive for stripe in stripes for drive in stripe)
    spanning: Counter[tuple[int, ...]] = Counter()
    for stripe in stripes:
        for failed in itertools.combinations(sorted(stripe), parity):
            spanning[failed] += 1
    width = len(stripes[0])
    total = Fraction(0)
    sets = list(itertools.combinations(range(children), parity))
    for failed in sets:
        surviving_blocks = sum(blocks.values()) - sum(blocks[d] for d in failed)
        # each stripe holding all of F has w - p blocks on surviving drives
        total += Fraction(spanning[failed] * (width - parity), surviving_blocks)
    return total / len(sets)


def _sigma_exact(parity: int, children: int, data: int) -> Fraction:
    width = data + parity
    return Fraction(
        math.comb(children - 1 - parity, width - 1 - parity), math.comb(children - 1, width - 1)
    )


@pytest.mark.parametrize(
    ("children", "data", "parity"), [(7, 2, 1), (9, 3, 2), (10, 4, 2), (11, 3, 3), (8, 5, 2)]
)
def test_sigma_against_every_possible_stripe(children: int, data: int, parity: int) -> None:
    stripes = list(itertools.combinations(range(children), data + parity))
    share = _share_by_enumeration(children, parity, stripes)
    assert share == _sigma_exact(parity, children, data)
    assert defect_stripe_share(parity, children, data) == pytest.approx(float(share), rel=1e-14)


def _rotated_permutation_layout(
    children: int, data: int, parity: int, spares: int, permutations: int, seed: int
) -> list[tuple[int, ...]]:
    width = data + parity
    assert (children - spares) % width == 0, "groups within a row"
    rng = random.Random(seed)
    stripes = []
    for _ in range(permutations):
        base = list(range(children))
        rng.shuffle(base)
        for rotation in range(children):
            row = [(drive + rotation) % children for drive in base]
            slots = row[: children - spares]  # the spare space is at the row's end
            stripes += [tuple(slots[i : i + width]) for i in range(0, len(slots), width)]
    return stripes


@pytest.mark.parametrize(
    ("children", "data", "parity", "spares"),
    [(21, 4, 1, 1), (42, 8, 2, 2), (24, 4, 3, 3), (48, 8, 2, 8)],
)
def test_sigma_against_a_rotated_permutation_layout(
    children: int, data: int, parity: int, spares: int
) -> None:
    stripes = _rotated_permutation_layout(children, data, parity, spares, permutations=3, seed=7)
    share = _share_by_enumeration(children, parity, stripes)
    assert share == _sigma_exact(parity, children, data)
    layout = Layout("pool", f"draid{parity}", parity, children, Declustered(data, spares))
    assert layout.defect_stripe_share == pytest.approx(float(share), rel=1e-14)


def test_the_worked_pool_and_a_traditional_group() -> None:
    # draid2:8d:48c:2s: 9 x 8 / (47 x 46) = 3.3 % (docs/declustered.md)
    assert defect_stripe_share(2, 48, 8) == pytest.approx(72 / 2162, rel=1e-15)
    assert Layout("r6", "raid6", 2, 12).defect_stripe_share == 1.0
    assert defect_stripe_share(2, 10, 8) == 1.0  # w = C: every stripe spans every drive


def test_a_pools_tornado_moves_the_same_chain_as_the_table() -> None:
    """The stripe share reaches the tornado: its base and its defect bar equal evaluate's."""
    import dataclasses

    from planner.core.design.layout_comparison import compare_layouts
    from planner.core.design.sensitivity import tornado
    from planner.core.design.sweep import Parameter, SweepPoint
    from planner.core.markov.rates import Rates

    pool = Layout("pool", "draid2", 2, 48, Declustered(8, 2))
    rates = Rates(0.01 / 8_760, 9.5e-4, 77.2, 168.0)
    point = SweepPoint(pool.chain_rates(rates), 43_800.0, 96)
    result = tornado(
        2, 48, point, 0.5, 2.0, [Parameter.LATENT_DEFECTS_PER_HOUR], pool.data_capacity
    )

    def table(r: Rates) -> float:
        return (
            compare_layouts([pool], data_disks=96, rates=r, mission_hours=43_800.0)
            .results[0]
            .p_loss_aggregate
        )

    assert result.p_loss_aggregate == pytest.approx(table(rates), rel=1e-13)
    bar = result.bars[0]
    doubled = dataclasses.replace(rates, latent_defects_per_hour=2 * 9.5e-4)
    assert bar.p_loss_high == pytest.approx(table(doubled), rel=1e-13)
