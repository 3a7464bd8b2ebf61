"""Structure of the n+k chain against the paper's Figures 1 and 4 (NS3574).

Expected matrices are written out by hand from the paper's text, not taken from the code,
with one move the paper leaves out (issue 20): the drive holding the latent defect can
fail, (f, 1) -> (f + 1, 0) at lambda_op, its defect going with it.
"""

import numpy as np
import pytest

from planner.core.markov.chain import Event, State, build_chain
from planner.core.markov.rates import Rates
from planner.core.markov.transient import generator_matrix, transition_rates

# Distinct, "odd" rates so that a transition using the wrong rate or multiplier shows up.
LOP, LLD, MOP, MSC = 3e-6, 7e-5, 1 / 11, 1 / 170
RATES = Rates(
    op_failures_per_hour=LOP,
    latent_defects_per_hour=LLD,
    rebuild_hours=11.0,
    scrub_hours=170.0,
)


def _with_diagonal(q: np.ndarray) -> np.ndarray:
    q = q.copy()
    q[np.diag_indices(q.shape[0])] = -q.sum(axis=1)
    return q


def figure1(n: int) -> np.ndarray:
    """NS3574 Figure 1 (n+1): states 1..4 -> indices 0..3, N = n + 1 drives."""
    q = np.zeros((4, 4))
    q[0, 1] = (n + 1) * LLD  # 1 -> 2 latent defect on any drive
    q[0, 2] = (n + 1) * LOP  # 1 -> 3 operational failure of any drive
    q[1, 0] = MSC  # 2 -> 1 scrub repairs the defect
    q[1, 3] = n * LOP  # 2 -> 4 a *different* drive fails
    q[1, 2] = LOP  # 2 -> 3 the drive holding the defect fails (not in the paper)
    q[2, 0] = MOP  # 3 -> 1 rebuild completes
    q[2, 3] = n * LOP  # 3 -> 4 second operational failure
    return _with_diagonal(q)


def figure4(n: int) -> np.ndarray:
    """NS3574 Figure 4 (n+2), N = n + 2 drives.

    1 pristine, 2 latent, 3 one failed, 4 one failed + latent, 5 two failed, 6 loss;
    multipliers n+2, n+1, n from left to right. The latent defect may be the 1st or 2nd
    event, never the 3rd. Repairs: scrub 2 -> 1; one rebuild at a time 3 -> 1, 5 -> 3, and
    4 -> 2 (the failed drive is rebuilt, the undiscovered defect remains).
    """
    q = np.zeros((6, 6))
    q[0, 1] = (n + 2) * LLD
    q[0, 2] = (n + 2) * LOP
    q[1, 0] = MSC
    q[1, 3] = (n + 1) * LOP
    q[1, 2] = LOP  # the holder fails: one failed, no defect (not in the paper)
    q[2, 0] = MOP
    q[2, 3] = (n + 1) * LLD
    q[2, 4] = (n + 1) * LOP
    q[3, 1] = MOP
    q[3, 5] = n * LOP
    q[3, 4] = LOP  # the holder fails: two failed, no defect (not in the paper)
    q[4, 2] = MOP
    q[4, 5] = n * LOP
    return _with_diagonal(q)


@pytest.mark.parametrize("drives", [2, 3, 8, 22, 60])
def test_k1_is_figure1(drives: int) -> None:
    np.testing.assert_allclose(
        generator_matrix(1, drives, RATES), figure1(drives - 1), rtol=1e-15, atol=0
    )


@pytest.mark.parametrize("drives", [3, 5, 9, 22, 60])
def test_k2_is_figure4(drives: int) -> None:
    np.testing.assert_allclose(
        generator_matrix(2, drives, RATES), figure4(drives - 2), rtol=1e-15, atol=0
    )


def test_paper_state_numbering() -> None:
    k1 = build_chain(1).states
    assert [s.short() for s in k1] == ["(0,0)", "(0,1)", "(1,0)", "loss"]
    k2 = build_chain(2).states
    assert [s.short() for s in k2] == ["(0,0)", "(0,1)", "(1,0)", "(1,1)", "(2,0)", "loss"]
    assert k2[-1].is_loss
    assert not any(s.is_loss for s in k2[:-1])


@pytest.mark.parametrize("parity", range(1, 7))
def test_state_count_and_generator_shape(parity: int) -> None:
    chain = build_chain(parity)
    assert len(chain.states) == 2 * parity + 2
    assert chain.transient_count == 2 * parity + 1
    assert chain.loss_index == 2 * parity + 1
    drives = parity + 5
    q = generator_matrix(parity, drives, RATES)
    assert q.shape == (2 * parity + 2, 2 * parity + 2)
    # rows sum to zero up to rounding of the diagonal
    assert (np.abs(q.sum(axis=1)) <= 4e-16 * np.abs(np.diag(q))).all()
    off = q[~np.eye(q.shape[0], dtype=bool)]
    assert (off >= 0).all()
    # loss is absorbing: its row is all zero, and it is reachable from every transient state
    assert (q[-1] == 0).all()
    assert (q[:-1, -1] > 0).sum() == 2  # (k, 0) and (k-1, 1) lead straight to loss


@pytest.mark.parametrize("parity", range(1, 6))
def test_transitions_follow_the_rules(parity: int) -> None:
    """Each state (f, l) has exactly the moves the textual rules allow, at N - f - l etc."""
    drives = parity + 7
    chain = build_chain(parity)
    states = chain.states
    seen = {}
    for source, target, event, rate in transition_rates(parity, drives, RATES):
        s, t = states[source], states[target]
        f, lat = s.failed, s.latent
        seen[(source, event)] = rate
        if event is Event.OPERATIONAL_FAILURE and lat == 1 and t == State(f + 1, 0):
            # the drive holding the defect fails, and the defect with it
            seen[(source, "holder")] = rate
            assert rate == pytest.approx(LOP, rel=1e-15)
        elif event is Event.OPERATIONAL_FAILURE:
            assert rate == pytest.approx((drives - f - lat) * LOP, rel=1e-15)
            if f + 1 + lat > parity:
                assert t.is_loss
            else:
                assert t == State(f + 1, lat)
        elif event is Event.LATENT_DEFECT:
            assert lat == 0
            assert f < parity
            assert t == State(f, 1)
            assert rate == pytest.approx((drives - f) * LLD, rel=1e-15)
        elif event is Event.REBUILD:
            assert f > 0
            assert t == State(f - 1, lat)
            assert rate == pytest.approx(MOP, rel=1e-15)
        else:
            assert (f, lat) == (0, 1)
            assert t == State(0, 0)
            assert rate == pytest.approx(MSC, rel=1e-15)
    # every transient state can fail; every degraded state can be repaired
    for i, s in enumerate(states[:-1]):
        assert (i, Event.OPERATIONAL_FAILURE) in seen
        assert ((i, "holder") in seen) == (s.latent == 1)
        if s.failed or s.latent:
            assert (i, Event.REBUILD) in seen or (i, Event.SCRUB) in seen


def test_invalid_groups_are_rejected() -> None:
    with pytest.raises(ValueError, match="parity"):
        build_chain(0)
    with pytest.raises(ValueError, match="cannot hold"):
        generator_matrix(2, 2, RATES)
