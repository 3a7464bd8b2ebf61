"""Pool widths ``recommend`` searches: the whole range, the right-sized ones included."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from planner.analysis.recommend import search_layouts
from planner.core.design.candidates import PoolNeeds, SearchSpace, candidate_layouts, pool_widths
from planner.scenario import load_scenario

SHAPES = [(p, d, s) for p in (1, 2, 3) for d in (2, 4, 8, 16) for s in (0, 1, 2)]


def _right_sized(parity: int, data: int, spares: int, needs: PoolNeeds) -> list[int]:
    # Brute force: for each pool count m, the fewest children (d + p + s .. 255) whose m
    # pools hold the data, (C - s) d / (d + p) each, and serve the IOPS,
    # floor((C - s) / (d + p)) each; for the fewest m that has one, and the next three.
    width = data + parity
    found: dict[int, int] = {}
    for pools in range(1, 10_000):
        for children in range(width + spares, 256):
            holds = pools * (children - spares) * data >= needs.data_drives * width - 1e-9
            serves = pools * ((children - spares) // width) >= needs.iops_drives - 1e-9
            if holds and serves:
                found[pools] = children
                break
        if len(found) == 4:
            break
    return list(found.values())


@pytest.mark.parametrize(
    "needs", [PoolNeeds(20), PoolNeeds(96), PoolNeeds(400 / 18, 20_000 / 80), PoolNeeds(3000)]
)
def test_the_right_sized_widths_are_searched(needs: PoolNeeds) -> None:
    for parity, data, spares in SHAPES:  # 36 shapes of a few microseconds each: one test
        widths = pool_widths(parity, data, spares, needs)
        for children in _right_sized(parity, data, spares, needs):
            assert children in widths, (parity, data, spares, children, widths)


def test_the_ladder_spans_the_allowed_range() -> None:
    for parity, data, spares in SHAPES:
        widths = pool_widths(parity, data, spares, PoolNeeds(1e5, 1e4))
        shape = (parity, data, spares, widths)
        assert widths[0] == data + parity + spares, shape
        assert widths[-1] == 255, shape
        assert len(widths) <= 25, shape  # a bounded candidate count
        # no gap wider than 25 % (plus rounding) along the ladder
        assert all(b <= math.ceil(a * 1.25) + 1 for a, b in itertools.pairwise(widths)), shape


def test_twenty_data_drives_get_a_right_sized_pool(tmp_path: Path) -> None:
    # Issue 20: for 20 data drives recommend offered 48-drive pools, never a right-sized
    # one. draid2:8d with 2 spares: 27 children hold (27 - 2) x 8 / 10 = 20 drives of data.
    text = """\
name: twenty
mission_years: 5
drive: {arr: 1%, latent_defects_per_hour: 1e-5, capacity_tb: 20}
restore: {rebuild_hours: 77, scrub_hours: 168}
aggregate: {data_disks: 20}
layouts:
  - {raid: draid2, data: 8, children: 48, spares: 2}
target: {max_p_loss: 1e-3}
"""
    path = tmp_path / "twenty.yaml"
    path.write_text(text, encoding="utf-8")
    labels = {x.label for x in search_layouts(load_scenario(path))}
    assert "draid2:8d:27c:2s" in labels


def test_given_children_are_searched_as_given() -> None:
    space = SearchSpace(declustered=True, draid_children=(24, 48), parities=(2,))
    pools = [x for x in candidate_layouts(space) if x.declustered is not None]
    assert {x.group_size for x in pools} == {24, 48}


def test_the_default_search_is_bounded() -> None:
    space = SearchSpace(declustered=True)
    pools = [x for x in candidate_layouts(space, PoolNeeds(400 / 18, 250)) if x.declustered]
    assert len(pools) <= 3 * 3 * 2 * 25
