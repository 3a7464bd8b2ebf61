"""How the rare-event copies are biased, and when splitting pays at all.

The splitting estimator (:mod:`planner.core.simulation.rare_events`) is unbiased under any
multipliers of the natural rates; this module chooses them, from a constant-rate reference
chain of the group.

**How the copies are biased** (a tuning choice only, never a source of bias). In each
non-critical state with ``f >= 1`` the biasing acts on the jump chain, as the balanced
failure biasing of Shahabuddin (1994): the up-moves (operational failures at ``a`` per hour,
latent defects at ``b``) are scaled up and the rebuild hazard scaled down (``gamma < 1``) so
that the total exit rate ``a + b + d`` stays the same while up-moves win ``theta`` to 1
(``theta = up_per_rebuild``, 10 by default). With constant rates the exponential factors of
``L`` then cancel and ``L`` is the product of the jump-probability ratios, which for the
straight paths that dominate (fewest rare events) is nearly constant: bounded relative error.
Scaling only the failure hazard (the earlier estimator) leaves ``exp((beta - 1) a tau)``
with a rebuild time ``tau``, whose second moment is infinite once ``beta a`` exceeds the
rebuild rate, which forced weak biasing and made a depth-8 path a ~1e-4 event even under
the biased law. The split between the two kinds of up-move follows the approximate
zero-variance rule (L'Ecuyer and Tuffin 2011): in proportion to ``a V(up) : b V(latent)``,
``V`` being the natural expected loss contribution of the rest of the period, computed on the
constant-rate chain with the reference failure hazard ``H(T) / T`` and the mean rebuild and
scrub times, and the stripe share sigma, which scales what ``(k - 1, 1)`` is worth. The
holder's failure, ``(f, 1) -> (f + 1, 0)``, brings a critical state no
nearer (``f + l`` stays) and keeps its natural rate; it only adds to the exit rate. States
whose up-moves are already that frequent are left natural. Biasing stops
at the copy's first critical visit (the natural law after it, which returns the copy to
``f = 0`` quickly; an adapted change of measure keeps ``L`` a martingale).

**When biasing pays** (method ``auto``): with the same reference chain, the expected number of
critical visits per mission is ``nu = (rebuild periods per mission) x P(a rebuild period
reaches a critical state)``. With ``nu >= 0.1`` a tenth of the missions or more contribute
through conditioning alone, which is cheaper than splitting (no copies); below, splitting.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.rare_events import SamplingPlan, conditional_plan

DEFAULT_UP_PER_REBUILD = 10.0
"""Expected biased up-moves (failures, latent defects) per mean rebuild in a biased state."""

CONDITIONING_PAYS_VISITS = 0.1
"""Expected critical visits per mission above which ``auto`` uses conditioning alone."""


def reference_hazard_per_hour(distributions: DistributionSet, mission_hours: float) -> float:
    """Mean failure hazard of a drive of the batch over the mission (per hour).

    ``(H(a + T) - H(a)) / T``, ``a`` the drives' age at the start (0: new drives).
    """
    life = distributions.operational_failure
    age = distributions.drive_age_hours_at_start
    gained = life.cumulative_hazard(age + mission_hours) - life.cumulative_hazard(age)
    return float(gained) / mission_hours


@dataclass(frozen=True)
class _ReferenceChain:
    """Constant-rate rates per state used only to size the plan (per hour)."""

    parity: int
    drives: int
    op_per_drive: float
    ld_per_drive: float
    rebuild_per_stream: float
    streams: int
    stripe_share: float = 1.0

    def up_rates(self, f: int, latent: int) -> tuple[float, float]:
        """(failure rate of the drives but the holder, latent defect rate) out of ``(f, l)``."""
        op = (self.drives - f - latent) * self.op_per_drive
        ld = (self.drives - f) * self.ld_per_drive if latent == 0 and f < self.parity else 0.0
        return op, ld

    def holder_rate(self, latent: int) -> float:
        """Failure rate of the defect's holder, ``(f, 1) -> (f + 1, 0)`` (0 without one)."""
        return self.op_per_drive if latent == 1 else 0.0

    def down_rate(self, f: int) -> float:
        """Rebuild completions per hour with ``f`` failed drives: min(f, streams) mu."""
        return min(f, self.streams) * self.rebuild_per_stream

    def balanced_weights(
        self, f: int, latent: int, theta: float, value: dict[tuple[int, int], float]
    ) -> tuple[float, float, float] | None:
        """Multipliers (failure, latent defect, rebuild) of ``(f, l)``; None leaves it natural.

        The total exit rate kept, up-moves winning ``theta`` to 1 against the rebuilds, the
        up-moves split as ``a V(up) : b V(latent)`` with ``value`` (:meth:`period_values`);
        a state whose up-moves are already that frequent is left natural.
        """
        op, ld = self.up_rates(f, latent)
        down = self.down_rate(f)
        if op + ld >= theta * down:
            return None
        exit_rate = op + ld + down
        target = exit_rate * theta / (1.0 + theta)
        w_op = op * value.get((f + 1, latent), 0.0)
        w_ld = ld * value.get((f, 1), 0.0)
        total = w_op + w_ld
        if not (math.isfinite(total) and total > 0):
            w_op, w_ld, total = op, ld, op + ld
        op_w = max(1.0, target * (w_op / total) / op) if op > 0 else 1.0
        ld_w = max(1.0, target * (w_ld / total) / ld) if ld > 0 else 1.0
        return op_w, ld_w, exit_rate / (1.0 + theta) / down

    def period_values(self, critical_value: bool) -> dict[tuple[int, int], float]:
        """Per state with ``f >= 1``, a natural expectation over the rest of the period.

        With ``critical_value`` the loss intensity integrated over critical sojourns, else
        the indicator of reaching a critical state. The period ends at ``f = 0``. Out of
        ``(k - 1, 1)`` the failures but the holder's lose with probability sigma and
        otherwise go to ``(k, 0)`` (a critical visit either way: sigma changes what a
        period's critical states contribute, not whether it reaches one).
        """
        k = self.parity
        states = [(f, la) for f in range(1, k + 1) for la in (0, 1) if f + la <= k]
        index = {s: i for i, s in enumerate(states)}
        size = len(states)
        m = np.zeros((size, size))
        rhs = np.zeros(size)
        for s, i in index.items():
            f, la = s
            op, ld = self.up_rates(f, la)
            down = self.down_rate(f)
            moves = [(self.holder_rate(la), (f + 1, 0)), (down, (f - 1, la))]
            m[i, i] = 1.0
            if f + la == k:
                if not critical_value:
                    rhs[i] = 1.0
                    continue
                share = self.stripe_share if la == 1 else 1.0
                moves.append((op - share * op, (k, 0)))
                total = op + sum(rate for rate, _ in moves)
                rhs[i] = share * op / total
            else:
                moves += [(op, (f + 1, la)), (ld, (f, 1))]
                total = sum(rate for rate, _ in moves)
            for rate, target in moves:
                if rate > 0 and target in index:
                    m[i, index[target]] -= rate / total
        values = np.linalg.solve(m, rhs)
        return {s: max(float(values[i]), 0.0) for s, i in index.items()}


def _reference(
    parity: int, drives: int, distributions: DistributionSet, mission_hours: float
) -> _ReferenceChain:
    return _ReferenceChain(
        parity=parity,
        drives=drives,
        op_per_drive=reference_hazard_per_hour(distributions, mission_hours),
        ld_per_drive=distributions.latent_defects_per_hour,
        rebuild_per_stream=1.0 / distributions.restoration.mean_hours,
        streams=distributions.streams_for(parity),
        stripe_share=distributions.defect_stripe_share,
    )


def biased_plan(
    parity: int,
    drives: int,
    distributions: DistributionSet,
    mission_hours: float,
    *,
    up_per_rebuild: float = DEFAULT_UP_PER_REBUILD,
) -> SamplingPlan:
    """Conditioning in critical states plus failure biasing during rebuilds (see above).

    Args:
        parity: parity drives per group, k >= 1.
        drives: drives per group, N > k.
        distributions: the natural laws (and rebuild streams), only to size the multipliers.
        mission_hours: mission length (h), used for the reference failure hazard.
        up_per_rebuild: target expected up-moves per mean rebuild in a biased state; 0
            turns failure biasing off (the conditional plan). The stripe share sigma is
            ``distributions``' (the plan carries it; the reference chain's values use it).

    Returns:
        The plan; critical states (``f + l = k``) have weight 0, weights elsewhere >= 1.
    """
    if not (math.isfinite(up_per_rebuild) and up_per_rebuild >= 0):
        raise ValueError(f"up_per_rebuild must be a finite number >= 0, got {up_per_rebuild!r}")
    base = conditional_plan(parity, drives, distributions.defect_stripe_share)
    if up_per_rebuild == 0 or parity < 2:
        return base
    ref = _reference(parity, drives, distributions, mission_hours)
    value = ref.period_values(critical_value=True)
    op_weight = [list(row) for row in base.op_weight]
    ld_weight = list(base.ld_weight)
    rebuild_weight = [[1.0, 1.0] for _ in range(parity + 1)]
    for f in range(1, parity):
        for latent in (0, 1):
            if f + latent >= parity:
                continue
            weights = ref.balanced_weights(f, latent, up_per_rebuild, value)
            if weights is None:
                continue
            op_weight[f][latent], ld, rebuild_weight[f][latent] = weights
            if latent == 0:
                ld_weight[f] = ld
    return SamplingPlan(
        parity=parity,
        drives=drives,
        conditional=True,
        op_weight=tuple((row[0], row[1]) for row in op_weight),
        ld_weight=tuple(ld_weight),
        rebuild_weight=tuple((row[0], row[1]) for row in rebuild_weight),
        defect_stripe_share=base.defect_stripe_share,
    )


def expected_critical_visits(
    parity: int,
    drives: int,
    distributions: DistributionSet,
    mission_hours: float,
) -> float:
    """Reference-chain estimate of the critical visits per mission (see "When biasing pays").

    Rebuild periods start at ``N h T`` per mission; one that starts with the latent defect
    present (a share ``pi`` of the time, ``N lambda_ld`` in against ``1 / scrub + h`` out,
    the holder's failure taking the defect with it) starts in ``(1, 1)`` when a drive other
    than the holder fails (``N - 1`` of ``N``), else in ``(1, 0)``. For k = 1 every period
    starts critical. The stripe share sigma plays no part: it decides what a critical visit
    contributes, not how often one happens.
    """
    ref = _reference(parity, drives, distributions, mission_hours)
    periods = drives * ref.op_per_drive * mission_hours
    if parity == 1:
        return periods
    reach = ref.period_values(critical_value=False)
    ld_in = drives * ref.ld_per_drive
    pi_latent = ld_in / (ld_in + 1.0 / distributions.scrub.mean_hours + ref.op_per_drive)
    with_defect = pi_latent * (drives - 1) / drives
    return periods * ((1 - with_defect) * reach[(1, 0)] + with_defect * reach[(1, 1)])
