"""An independent high-precision P(loss) for the sweep and sensitivity command tests.

The chain is the suite's one shared reference, ``tests/reference.py``: written from the
textual rules of NS3574 ("Probability of data loss") as generalised to n+k, not from
planner's code, and solved by mpmath's matrix exponential.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import pytest

from tests import reference

PAPER = {"arr": 0.019, "lld": 1.08e-4, "rebuild": 12.0, "scrub": 168.0, "years": 5.0}
"""NS3574's inputs, as in the bundled default scenario."""


def p_loss_reference(
    parity: int,
    drives: int,
    arr: float = PAPER["arr"],
    lld: float = PAPER["lld"],
    rebuild: float = PAPER["rebuild"],
    scrub: float = PAPER["scrub"],
    years: float = PAPER["years"],
) -> mpmath.mpf:
    """P(one group of ``drives`` with ``parity`` parity drives loses data), from the shared
    independent chain of ``tests/reference.py`` (the paper's rules, not planner's code)."""
    return reference.p_loss(parity, drives, arr / 8760, lld, rebuild, scrub, years * 8760)


def aggregate_reference(p_group: mpmath.mpf, groups: int) -> mpmath.mpf:
    """1 - (1 - p)^groups at 40 digits (an aggregate loses data when any group does)."""
    with mpmath.workdps(40):
        return 1 - (1 - p_group) ** groups


@pytest.fixture
def mp_p_loss() -> Callable[..., mpmath.mpf]:
    """:func:`p_loss_reference`."""
    return p_loss_reference


@pytest.fixture
def mp_aggregate() -> Callable[[mpmath.mpf, int], mpmath.mpf]:
    """:func:`aggregate_reference`."""
    return aggregate_reference
