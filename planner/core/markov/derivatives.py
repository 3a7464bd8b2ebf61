"""``theta dQ/dtheta`` for every input of the chain, as two non-negative parts.

The sensitivity analysis (:mod:`planner.core.design.sensitivity`) needs the derivative of
the generator in the direction of each input, ``E = theta dQ/dtheta``, and feeds it to the
cancellation-free exponential, which takes non-negative off-diagonal entries only. So each
``E``'s off-diagonal is returned as ``plus - minus``, both non-negative:

* a rate (lambda_op, lambda_ld, mu_op, mu_scrub, the shock rate): Q is linear in it, so
  ``E`` is the generator of that rate's transitions alone; ``minus`` is 0;
* the degraded multiplier m: Q is affine in m, ``m dQ/dm`` is the generator of the
  failures out of states with a drive down; ``minus`` is 0;
* the shock probability q: a shock's rate is the shock rate times a binomial probability,
  and ``d/dq P(X >= j) = W P(Y = j - 1)``, ``d/dq P(X = j) = W (P(Y = j - 1) - P(Y = j))``
  with ``X ~ Bin(W, q)``, ``Y ~ Bin(W - 1, q)``: the first terms go to ``plus``, the
  subtracted one to ``minus`` (never formed as a difference). Out of a state with a latent
  defect the binomial is also times h = q (the holder hit) or 1 - q (spared), so
  ``q d/dq (h P) = h (q dP/dq) + (q dh/dq) P`` with ``q dh/dq`` = q or -q: the latter
  term to ``plus`` (hit) or ``minus`` (spared).

The correlation inputs are taken on the correlated chain's structure whatever their values
(at m = 1 and no shocks its Q is the independent one; the derivative need not be 0).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import Event
from planner.core.markov.chain_inputs import ChainInputs
from planner.core.markov.generator import _fill, generator_of
from planner.core.markov.shocks import shock_share
from planner.core.markov.transition_arrays import base_values, transition_structure

FloatArray = npt.NDArray[np.float64]

RATE_EVENTS = {
    "lambda_op": Event.OPERATIONAL_FAILURE,
    "lambda_ld": Event.LATENT_DEFECT,
    "mu_op": Event.REBUILD,
    "mu_scrub": Event.SCRUB,
}
"""The paper's rates by symbol, and the event each one drives (Q is linear in each)."""

CORRELATION_SYMBOLS = ("m", "lambda_shock", "q")
"""The correlation inputs' symbols: the degraded multiplier, the shock rate, q."""


def _off_diagonal(q: FloatArray) -> FloatArray:
    out: FloatArray = q * (1.0 - np.eye(q.shape[-1]))
    return out


def derivative_parts(
    parity: int, inputs: ChainInputs, symbol: str
) -> tuple[FloatArray, FloatArray]:
    """``(plus, minus)``: the off-diagonal of ``theta dQ/dtheta`` is ``plus - minus`` (per hour).

    ``symbol``: a key of :data:`RATE_EVENTS` or of :data:`CORRELATION_SYMBOLS`. Both parts
    are non-negative, of shape ``inputs.shape + (m, m)``, zero on the diagonal.
    """
    if symbol in RATE_EVENTS:
        part = _off_diagonal(generator_of(parity, inputs, events=(RATE_EVENTS[symbol],)))
        return part, np.zeros(part.shape)
    if symbol not in CORRELATION_SYMBOLS:
        raise ValueError(f"no derivative for {symbol!r}")
    inputs.check_parity(parity)
    structure = transition_structure(parity, inputs.rebuild_streams, None, inputs.thinned, True)
    c = structure.correlation
    assert c is not None  # a correlated structure
    base = base_values(
        structure,
        inputs.drives,
        inputs.per_event(),
        inputs.defect_stripe_share,
        inputs.degraded_multiplier,
    )
    shape = inputs.shape
    trials = inputs.drives[..., None] - c.shock_excluded
    q = inputs.shock_drive_probability[..., None]
    plus = np.zeros(base.shape)
    minus = np.zeros(base.shape)
    shock = base[..., c.shocks]
    if symbol == "m":
        plus = np.where(c.degraded, base, 0.0)
    elif symbol == "lambda_shock":
        plus[..., c.shocks] = shock * shock_share(
            trials, c.shock_jump, c.shock_tail, q, c.shock_holder
        )
    else:  # q: the binomial factors' q-derivatives, times q (the holder's factor h apart)
        h = c.shock_holder
        rising = q * trials * shock_share(trials - 1, c.shock_jump - 1, False, q, h)
        falling = q * trials * shock_share(trials - 1, c.shock_jump, False, q, h)
        own = q * shock_share(trials, c.shock_jump, c.shock_tail, q)  # q dh/dq = +-q
        plus[..., c.shocks] = shock * (rising + np.where(h > 0, own, 0.0))
        minus[..., c.shocks] = shock * (
            np.where(c.shock_tail, 0.0, falling) + np.where(h < 0, own, 0.0)
        )
    return _off_diagonal(_fill(structure, plus, shape)), _off_diagonal(
        _fill(structure, minus, shape)
    )
