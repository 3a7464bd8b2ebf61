"""The binomial failure rate model of common-cause failure: how many drives a shock fails.

Shocks hit a group at a rate; at a shock each of the W exposed drives fails with probability
q, independently, so j of them fail at once with probability ``C(W, j) q^j (1 - q)^(W - j)``
(Vesely, "Estimating common cause failure probabilities in reliability and risk analyses:
Marshall-Olkin specializations", 1977; Atwood, "The binomial failure rate common cause
model", Technometrics 28(2), 1986; Mosleh et al., "Procedures for treating common cause
failures in safety and reliability studies", NUREG/CR-4780, 1988). The chain's shock
transitions (:func:`planner.core.markov.chain.build_chain`) carry these probabilities as
factors on the shock rate; the jumps past parity are summed into one tail probability.
Out of a state with a latent defect, the defect's holder is one more exposed drive, kept apart
from the binomial because its failure also ends the defect: its factor q (hit) or 1 - q
(spared) multiplies the binomial probability of the others (``holder``).

Both are computed without cancellation, so that a 1e-20 tail keeps its relative accuracy:
the point probability as a product (``(1 - q)^(W - j)`` as ``exp((W - j) log1p(-q))``), the
tail with the regularized incomplete beta function (:func:`scipy.special.bdtrc`), never as
``1 - cdf``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

__all__ = ["shock_share"]


def shock_share(
    trials: npt.ArrayLike,
    jumps: npt.ArrayLike,
    tails: npt.ArrayLike,
    probability: npt.ArrayLike,
    holder: npt.ArrayLike = 0,
) -> FloatArray:
    """``P(Binomial(W, q) = j)``, or ``P(Binomial(W, q) >= j)`` where ``tails``, broadcast.

    Args:
        trials: W, the drives a shock can fail (whole numbers >= 0).
        jumps: j, the drives that fail at once (0 where not a tail: none of the W).
        tails: True for the probability of j or more.
        probability: q in [0, 1], each drive's probability of failing at a shock.
        holder: the defect's holder beside the W drives: 0 none (no factor), 1 hit (times
            q), -1 spared (times 1 - q).

    Returns:
        The probabilities in [0, 1] (0 where j > W or j < 0), of the broadcast shape.
    """
    # SciPy only where shocks are: the commands that never meet one start without it
    from scipy.special import bdtrc, binom, xlog1py

    w, j, tail, q = np.broadcast_arrays(
        np.asarray(trials, dtype=np.float64),
        np.asarray(jumps, dtype=np.float64),
        np.asarray(tails, dtype=bool),
        np.asarray(probability, dtype=np.float64),
    )
    possible = (j <= w) & (j >= 0)
    # where j > W or j < 0 both forms are 0; keep their arguments in range (q^j, bdtrc)
    w_in, j = np.where(possible, w, 1.0), np.where(possible, j, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        point = binom(w_in, j) * q**j * np.exp(xlog1py(w_in - j, -q))
        # whole numbers as integers: scipy deprecates floats for them
        upper = bdtrc((j - 1.0).astype(np.int64), w_in.astype(np.int64), q)
    side = np.asarray(holder, dtype=np.float64)
    # 1, q or 1 - q: exact as written (no difference of nearby numbers)
    factor = np.where(side == 0, 1.0, np.where(side > 0, q, 1.0 - q))
    out: FloatArray = np.where(possible, np.where(tail, upper, point), 0.0) * factor
    return out
