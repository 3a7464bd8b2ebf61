"""The recommendation's choice against brute force written here, on small random spaces."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.core.design.candidates import SearchSpace, candidate_layouts
from planner.core.design.recommend import Target, choose, misses, pareto_front

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


# (cost, P(loss), P(group lost), drives) on small grids, to force ties on every figure
four = st.lists(
    st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5), st.integers(1, 5)),
    min_size=1,
    max_size=25,
)


def _beaten(i: int, values: list[list[float]]) -> bool:
    """Another candidate no worse on every figure and better on one (written out here)."""
    return any(
        all(v[j] <= v[i] for v in values) and any(v[j] < v[i] for v in values)
        for j in range(len(values[0]))
    )


@settings(max_examples=300)
@given(four)
def test_the_front_over_two_risks_is_the_non_dominated_set(
    rows: list[tuple[int, int, int, int]],
) -> None:
    cost = [float(c) for c, _, _, _ in rows]
    p = [r / 1e4 for _, r, _, _ in rows]
    g = [r / 1e6 for _, _, r, _ in rows]
    front = pareto_front(cost, p, g)
    expected = {i for i in range(len(rows)) if not _beaten(i, [cost, p, g])}
    assert sorted(front.tolist()) == sorted(expected)
    assert [cost[i] for i in front] == sorted(cost[i] for i in front)


@settings(max_examples=300)
@given(
    four,
    st.one_of(st.none(), st.integers(1, 5)),
    st.integers(1, 5),
    st.one_of(st.none(), st.integers(1, 5)),
)
def test_choose_against_p_group_lost_matches_brute_force(
    rows: list[tuple[int, int, int, int]],
    p_limit: int | None,
    g_limit: int,
    drive_limit: int | None,
) -> None:
    # issue 20: a target on P(group lost), alone or beside P(loss)
    cost = np.array([float(c) for c, _, _, _ in rows])
    p = np.array([r / 1e4 for _, r, _, _ in rows])
    g = np.array([r / 1e6 for _, _, r, _ in rows])
    drives = np.array([float(d) for _, _, _, d in rows])
    target = Target(
        max_p_loss=None if p_limit is None else p_limit / 1e4,
        max_drives=drive_limit,
        max_p_group_lost=g_limit / 1e6,
    )
    choice = choose(target, cost, p, drives, False, g)
    good = [
        i
        for i in range(len(rows))
        if g[i] <= g_limit / 1e6
        and (p_limit is None or p[i] <= p_limit / 1e4)
        and (drive_limit is None or drives[i] <= drive_limit)
    ]
    assert sorted(choice.meeting.tolist()) == sorted(good)
    for i in range(len(rows)):
        found = {m.target for m in misses(target, p[i], drives[i], None, g[i])}
        assert (i in good) == (not found)
        assert ("max_p_group_lost" in found) == (g[i] > g_limit / 1e6)
    # ranked by cost, then P(group lost), then P(loss) when it is limited too
    ranked = [(cost[i], g[i], p[i] if p_limit is not None else 0.0) for i in choice.meeting]
    assert ranked == sorted(ranked)
    figures = [list(cost), list(g)] + ([list(p)] if p_limit is not None else [])
    expected_front = {i for i in range(len(rows)) if not _beaten(i, figures)}
    assert set(choice.front.tolist()) == expected_front
    if not good:
        assert choice.top is None
        assert choice.closest is not None

        def need(i: int) -> float:
            return max(m.ratio for m in misses(target, p[i], drives[i], None, g[i]))

        assert need(choice.closest) == min(need(i) for i in range(len(rows)))
    else:
        assert choice.top == choice.meeting[0]


def test_a_target_needs_a_risk_limit() -> None:
    with pytest.raises(ValueError, match="max_p_loss, max_p_group_lost or max_p_unavailable"):
        Target(max_p_loss=None)
    with pytest.raises(ValueError, match="max_p_group_lost"):
        Target(max_p_loss=None, max_p_group_lost=1.0)
    with pytest.raises(ValueError, match="max_p_group_lost: its figure is needed"):
        choose(Target(None, max_p_group_lost=1e-5), [1.0], [1e-6], [1.0], False)
