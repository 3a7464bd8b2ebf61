"""Variance reduction for the simulator: conditioning on the last failure, failure biasing.

The plain simulator (:mod:`planner.core.simulate`) waits for data loss to happen, which a
16-drive RAID-DP group does in ~1 of 15,000 five-year missions under the Elerath and Pecht
(2009) preset, and a triple-parity group in ~1 of 1e8. Two unbiased
devices make those probabilities cheap to estimate; both are set up here as a
:class:`SamplingPlan`, a table of multipliers of the natural rates per state ``(f, l)``.

**Conditioning on the last event (conditional Monte Carlo).** Data loss is always an
operational failure in a *critical* state, one with ``f + l = k`` (NS3574: the latent defect
is never the last event). Let ``r(t)`` be the intensity of that killing failure: the sum of
the hazards (per hour) of the drives at risk while the group is critical, zero otherwise.
Simulate instead the process in which those failures are held (the drives at risk keep
ageing but cannot fail while the group is critical); every other transition keeps its law.
The killed and the unkilled processes agree until the kill, so (Feynman-Kac)

    P(loss by T) = E'[1 - exp(-Lambda_T)],    Lambda_T = integral of r(t) dt over [0, T],

and each trial contributes ``1 - exp(-Lambda_T)`` instead of a 0/1 outcome. For a Weibull
lifetime ``Lambda`` is a sum of cumulative-hazard increments ``H(a1) - H(a0)``, exact. Every
trial in which the group ever becomes critical now contributes, so for RAID 6 under the
Elerath and Pecht (2009) preset (a latent defect is present ~20% of the time, a failure then
makes the group critical) a fifth of the trials count instead of one in 15,000.

**Failure biasing (importance sampling).** For k >= 3 reaching a critical state still needs
failures during a rebuild, each ~1e-3 likely. While a rebuild runs (``f >= 1``) and the group
is not critical, the hazard of every drive at risk is multiplied by ``beta_op(f, l)`` and the
latent-defect rate by ``beta_ld(f)``: the balanced failure biasing of Shahabuddin (1994) in a
hazard-scaling form that needs no exponential assumption (cf. Nicola, Shahabuddin and
Heidelberger 1993 for non-exponential failure biasing). The likelihood ratio of the natural
to the biased law of point processes with intensities ``lambda_i(t)`` scaled by ``beta_i``
is (Bremaud 1981, Point Processes and Queues, ch. VI)

    L_t = prod over biased events of 1 / beta_i  *  exp(sum_i (beta_i - 1) integral lambda_i dt),

a martingale under the biased law, so ``E'[Y] = E_Q[L Y]``. The estimator weights each
increment of ``1 - exp(-Lambda)`` by ``L`` at the time of the increment (``L`` is constant
while the group is critical, since nothing is biased there), which is unbiased by the
martingale property and has a smaller variance than weighting by ``L_T``.

The multipliers are a tuning choice only, never a source of bias: ``beta`` is set so that the
expected number of biased up-moves during one mean rebuild is ``bias`` (default 0.5), shared
equally between operational failures and latent defects where both can happen, and never
below 1 (natural rates are kept where events are already frequent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.core.distributions import DistributionSet

DEFAULT_BIAS = 0.5
"""Target expected number of up-moves (failures, latent defects) per biased rebuild."""


@dataclass(frozen=True)
class SamplingPlan:
    """Per-state multipliers of the natural rates, for one group shape and method.

    Attributes:
        parity: parity drives per group, k.
        drives: drives per group, N.
        conditional: hold failures in critical states and integrate their hazard (True), or
            let them happen and count a loss (False, plain Monte Carlo).
        op_weight: ``op_weight[f][l]`` multiplies the failure hazard of every drive at risk
            in state ``(f, l)``; 0 holds it (critical states of the conditional method).
        ld_weight: ``ld_weight[f]`` multiplies the latent defect rate in state ``(f, 0)``.
    """

    parity: int
    drives: int
    conditional: bool
    op_weight: tuple[tuple[float, float], ...]
    ld_weight: tuple[float, ...]

    @property
    def biased(self) -> bool:
        """True when some rate is changed, so the trials carry likelihood ratios."""
        return any(w not in (0.0, 1.0) for row in self.op_weight for w in row) or any(
            w != 1.0 for w in self.ld_weight
        )


def plain_plan(parity: int, drives: int) -> SamplingPlan:
    """Natural rates everywhere: plain Monte Carlo, each trial a 0/1 loss indicator."""
    return SamplingPlan(
        parity=parity,
        drives=drives,
        conditional=False,
        op_weight=tuple((1.0, 1.0) for _ in range(parity + 1)),
        ld_weight=tuple(1.0 for _ in range(parity + 1)),
    )


def reference_hazard_per_hour(distributions: DistributionSet, mission_hours: float) -> float:
    """Mean failure hazard of a new drive over the mission (per hour): H(T) / T."""
    life = distributions.operational_failure
    return float(life.cumulative_hazard(mission_hours)) / mission_hours


def conditional_plan(
    parity: int,
    drives: int,
    distributions: DistributionSet,
    mission_hours: float,
    bias: float = DEFAULT_BIAS,
) -> SamplingPlan:
    """Conditioning in critical states plus balanced failure biasing during rebuilds.

    Args:
        parity: parity drives per group, k >= 1.
        drives: drives per group, N > k.
        distributions: the natural laws, used only to size the multipliers.
        mission_hours: mission length (h), used for the reference failure hazard.
        bias: target expected number of up-moves per rebuild in a biased state; 0 turns
            failure biasing off (conditioning only).

    Returns:
        The plan; critical states (``f + l = k``) have weight 0.
    """
    if not (math.isfinite(bias) and bias >= 0):
        raise ValueError(f"bias must be a finite number >= 0, got {bias!r}")
    h_ref = reference_hazard_per_hour(distributions, mission_hours)
    rebuild_hours = distributions.restoration.mean_hours
    ld_rate = distributions.latent_defects_per_hour
    op_weight: list[tuple[float, float]] = []
    ld_weight: list[float] = []
    for f in range(parity + 1):
        row = []
        for latent in (0, 1):
            if f + latent == parity:
                row.append(0.0)
            elif f == 0 or f + latent > parity or bias == 0:
                row.append(1.0)
            else:
                ld_possible = latent == 0 and ld_rate > 0
                share = bias / 2 if ld_possible else bias
                natural = (drives - f - latent) * h_ref * rebuild_hours
                row.append(max(1.0, share / natural))
        op_weight.append((row[0], row[1]))
        if 1 <= f < parity and bias > 0 and ld_rate > 0:
            natural_ld = (drives - f) * ld_rate * rebuild_hours
            ld_weight.append(max(1.0, (bias / 2) / natural_ld))
        else:
            ld_weight.append(1.0)
    return SamplingPlan(
        parity=parity,
        drives=drives,
        conditional=True,
        op_weight=tuple(op_weight),
        ld_weight=tuple(ld_weight),
    )
