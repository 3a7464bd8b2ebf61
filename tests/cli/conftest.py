"""An independent high-precision P(loss) for the sweep and sensitivity command tests.

The generator is built here from the textual rules of NS3574 ("Probability of data loss")
as generalised to n+k in planner.core.model's docstring, not from planner's code: states
(f, l) with f failed drives and l in {0, 1} an undiscovered latent defect, f + l <= k;

* operational failure (f, l) -> (f + 1, l), or data loss when f + 1 + l > k, at
  (N - f - l) x lambda_op;
* latent defect (f, 0) -> (f, 1) at (N - f) x lambda_ld while f < k;
* rebuild (f, l) -> (f - 1, l) at 1 / rebuild hours;
* scrub (0, 1) -> (0, 0) at 1 / scrub hours;

each diagonal entry minus its row's off-diagonal sum; P(loss) is the (pristine, loss)
entry of expm(Q T) at 40 digits.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import pytest

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
    """P(one group of ``drives`` with ``parity`` parity drives loses data), 40 digits."""
    with mpmath.workdps(40):
        lop = mpmath.mpf(arr) / 8760
        states = [(f, lat) for f in range(parity + 1) for lat in (0, 1) if f + lat <= parity]
        index = {s: i for i, s in enumerate(states)}
        loss = len(states)
        q = mpmath.zeros(loss + 1, loss + 1)
        for (f, lat), i in index.items():
            q[i, loss if f + 1 + lat > parity else index[(f + 1, lat)]] += (drives - f - lat) * lop
            if lat == 0 and f < parity:
                q[i, index[(f, 1)]] += (drives - f) * mpmath.mpf(lld)
            if f > 0:
                q[i, index[(f - 1, lat)]] += 1 / mpmath.mpf(rebuild)
            if (f, lat) == (0, 1):
                q[i, index[(0, 0)]] += 1 / mpmath.mpf(scrub)
        for i in range(loss + 1):
            q[i, i] = -mpmath.fsum(q[i, j] for j in range(loss + 1) if j != i)
        return +mpmath.expm(q * (mpmath.mpf(years) * 8760))[0, loss]


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
