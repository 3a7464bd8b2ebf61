"""The recommendation's choice against brute force written here, on small random spaces."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.recommend import (
    SearchSpace,
    Target,
    candidate_layouts,
    choose,
    misses,
    pareto_front,
)

# small integer grids force ties in cost and in P(loss)
points = st.lists(
    st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=25
)


def _dominated(i: int, cost: list[float], p: list[float]) -> bool:
    return any(
        cost[j] <= cost[i] and p[j] <= p[i] and (cost[j] < cost[i] or p[j] < p[i])
        for j in range(len(cost))
    )


@settings(max_examples=300)
@given(points)
def test_the_front_is_exactly_the_non_dominated_set(rows: list[tuple[int, int, int]]) -> None:
    cost = [float(c) for c, _, _ in rows]
    p = [r / 1e4 for _, r, _ in rows]
    front = pareto_front(cost, p)
    expected = {i for i in range(len(rows)) if not _dominated(i, cost, p)}
    assert set(front.tolist()) == expected
    assert len(front) == len(expected)  # each once
    assert [cost[i] for i in front] == sorted(cost[i] for i in front)


@settings(max_examples=300)
@given(points, st.integers(1, 6), st.one_of(st.none(), st.integers(1, 6)), st.booleans())
def test_choose_matches_brute_force(
    rows: list[tuple[int, int, int]], p_limit: int, drive_limit: int | None, money: bool
) -> None:
    cost = np.array([float(c) for c, _, _ in rows])
    p = np.array([r / 1e4 for _, r, _ in rows])
    drives = np.array([float(d) for _, _, d in rows])
    target = Target(max_p_loss=p_limit / 1e4, max_drives=drive_limit, max_cost=4.0)
    choice = choose(target, cost, p, drives, money)

    def meets(i: int) -> bool:
        return not misses(target, p[i], drives[i], cost[i] if money else None)

    good = [i for i in range(len(rows)) if meets(i)]
    assert sorted(choice.meeting.tolist()) == sorted(good)
    ranked = [(cost[i], p[i]) for i in choice.meeting]
    assert ranked == sorted(ranked)
    if not good:
        assert choice.top is None
        assert choice.nearest_cheaper is None
        assert choice.closest is not None
        # no candidate needs a smaller relaxation than the closest one

        def need(i: int) -> float:
            return max(m.ratio for m in misses(target, p[i], drives[i], cost[i] if money else None))

        assert need(choice.closest) == min(need(i) for i in range(len(rows)))
        return
    top = choice.top
    assert top is not None
    assert cost[top] == min(cost[i] for i in good)
    assert p[top] == min(p[i] for i in good if cost[i] == cost[top])
    # the next point down the front: cheaper, and beaten on both by no other candidate
    cheaper = [
        i
        for i in range(len(rows))
        if cost[i] < cost[top] and not _dominated(i, list(cost), list(p))
    ]
    if not cheaper:
        assert choice.nearest_cheaper is None
    else:
        nearest = choice.nearest_cheaper
        assert nearest is not None
        assert cost[nearest] == max(cost[i] for i in cheaper)
        assert p[nearest] == min(p[i] for i in cheaper if cost[i] == cost[nearest])
        assert not meets(nearest)  # else it would be the top choice


def test_candidates_are_valid_unique_and_cover_the_space() -> None:
    space = SearchSpace(parities=(1, 2, 3), min_group_size=3, max_group_size=30)
    layouts = candidate_layouts(space)
    labels = [x.label for x in layouts]
    assert len(labels) == len(set(labels))
    # mirrors + sizes 3..30 for k = 1 (28), 3..30 for k = 2 (28), 4..30 for k = 3 (27)
    assert len(layouts) == 2 + 28 + 28 + 27
    pools = candidate_layouts(
        SearchSpace(
            mirrors=False,
            parities=(2,),
            min_group_size=30,
            max_group_size=29,
            declustered=True,
            draid_children=(24, 48, 96),
        )
    )
    # 3 data x 3 children x 2 spares, all fit (d + 2 <= C - s for d <= 16, C >= 24)
    assert len(pools) == 18
    assert {p.declustered.data for p in pools if p.declustered} == {4, 8, 16}


def test_target_limits() -> None:
    with pytest.raises(ValueError, match="max_p_loss"):
        Target(max_p_loss=0.0)
