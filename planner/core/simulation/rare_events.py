"""Variance reduction for the simulator: conditioning, and failure biasing renewed per rebuild.

The plain simulator (:mod:`planner.core.simulation.simulate`) waits for data loss to happen, which a
16-drive RAID-DP group does in ~1 of 15,000 five-year missions under the Elerath and Pecht
(2009) preset, a triple-parity group in ~1 of 1e8 and an n+8 group of 9 drives in ~1 of 1e29.
The devices here make those probabilities cheap to estimate, each set up as a
:class:`SamplingPlan` (a table of multipliers of the natural rates per state ``(f, l)``).

**Conditioning on the last event (conditional Monte Carlo).** Data loss is always an
operational failure in a *critical* state, one with ``f + l = k`` (NS3574: the latent defect
is never the last event), of a drive other than the defect's holder: the holder's failure
takes its defect with it, ``(k - 1, 1) -> (k, 0)``, and loses nothing. Let ``r(t)`` be the
intensity of the killing failure: the sum of the hazards (per hour) of the working drives
other than the holder while the group is critical, zero otherwise. Simulate instead the
process in which those failures are held (those drives keep ageing but cannot fail while the
group is critical); every other transition, the holder's failure included, keeps its law.
The killed and the unkilled processes agree until the kill, so (Feynman-Kac)

    P(loss by T) = E'[1 - exp(-Lambda_T)],    Lambda_T = integral of r(t) dt over [0, T],

and each trial contributes ``1 - exp(-Lambda_T)`` instead of a 0/1 outcome. For a Weibull
lifetime ``Lambda`` is a sum of cumulative-hazard increments ``H(a1) - H(a0)``, exact. Every
trial that ever becomes critical contributes. This alone (method ``conditional``) is the
right tool when critical states are reached in a fair share of missions (k = 1, or RAID 6
with tens of rebuilds per mission).

A declustered pool's stripe share sigma
(:func:`planner.core.arrays.declustered.defect_stripe_share`)
splits the failure of a drive other than the holder out of ``(k - 1, 1)`` in two: with
probability sigma it loses sectors, else it goes to ``(k, 0)``, the defect cleared (its
stripe keeps redundancy and the rebuild repairs it). Thinning a point process by an
independent coin gives two independent processes at ``sigma r`` and ``(1 - sigma) r``, so
there the killing intensity is ``sigma r`` (integrated into ``Lambda``) and the other
failures happen at ``(1 - sigma)`` times their hazard: a natural move of the unkilled
process, not a change of measure, so it carries no likelihood-ratio term. The unkilled
process is then exactly the killed one up to the kill, and the identity above holds as it
stands. A likelihood ratio, where one is carried, weighs each drive's weight against that
natural one (``1 - sigma`` there, 1 elsewhere). Plain sampling draws the coin instead (a
uniform per such failure; none when sigma = 1, so a traditional group's draws are as
before).

**Failure biasing, renewed per rebuild period (splitting).** For deeper k reaching a
critical state needs several up-moves during one rebuild period (a *rebuild period* runs from
a failure in a state with no failed drive until no drive is failed again), each ~1e-3
likely. Biasing makes them likely, and the likelihood ratio of the natural to the biased law
of point processes whose intensities ``lambda_i(t)`` are scaled by ``beta_i`` (Bremaud 1981,
Point Processes and Queues, ch. VI)

    L = prod over events of 1 / beta_i  *  exp(sum_i (beta_i - 1) integral lambda_i dt)

restores the expectation. The earlier estimator carried one ``L`` through the whole mission:
with ~20 rebuild periods per mission the product of 20 such factors is log-normal-like and
so heavy-tailed (the largest of 200k trials 706x the mean) that the sample mean was low and
its variance estimate far too small. Here ``L`` never spans more than one rebuild period:

1. the *main path* runs the natural (conditioned) process over the whole mission;
2. at the start of each rebuild period ``i`` (time ``t_i``, state ``F_i``: drive ages, the
   failed drive, the latent defect, the rebuilds in progress) a *copy* is split off and
   run under the biased law from ``F_i`` until its rebuild period ends or the mission does,
   with ``L = 1`` at its start and fresh budgets (the remaining cumulative-hazard budget of a
   drive that survived, or of a rebuild still running, is again Exp(1), so the copy's
   future has the natural conditional law given ``F_i``);
3. the copy's estimate is ``Z_i = sum of L * exp(-Lambda) * (1 - exp(-dLambda))`` over its
   critical sojourns, unbiased for ``z_i``, the expected loss contribution of period ``i``
   given ``F_i`` (``L`` is a martingale under the biased law), and the trial's estimate is

       Y = sum_i exp(-Lambda_main(t_i)) * Z_i,

   unbiased because ``E[Y] = E[sum_i exp(-Lambda_main(t_i)) z_i]`` (tower property; the
   weight is known at ``t_i``) and the main path is the conditioned process itself, so this
   is the conditional estimator's expectation. The main path's own critical sojourns only
   discount later periods. With sigma < 1 the main path and the copies are that
   conditioned process: both let the clearing failures of ``(k - 1, 1)`` happen.

Since ``L`` spans one rebuild period, its spread does not grow with the rebuilds per mission.
How the copies are biased, and when splitting pays at all, is
:mod:`planner.core.simulation.biasing`'s (a tuning choice only, never a source of bias).

**Diagnostics.** Every estimate reports the effective sample size and the share of its
largest trial (:mod:`planner.core.simulation.simulate`), so a heavy tail shows instead of hiding
behind a narrow interval; ``tests/core/test_sim_coverage.py`` counts interval coverage over
a grid of regimes against exact values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class SamplingPlan:
    """Per-state multipliers of the natural rates, for one group shape and method.

    Attributes:
        parity: parity drives per group, k.
        drives: drives per group, N.
        conditional: hold failures in critical states and integrate their hazard (True), or
            let them happen and count a loss (False, plain Monte Carlo).
        op_weight: ``op_weight[f][l]`` multiplies the failure hazard of every working drive
            but the defect's holder in state ``(f, l)``; 0 holds it (critical states of the
            conditional method).
        ld_weight: ``ld_weight[f]`` multiplies the latent defect rate in state ``(f, 0)``.
        rebuild_weight: ``rebuild_weight[f][l]`` multiplies the hazard of every rebuild in
            progress in state ``(f, l)`` (all 1 when not given).
        holder_weight: ``holder_weight[f]`` multiplies the failure hazard of the drive that
            holds the latent defect in state ``(f, 1)`` (all 1 when not given). Never 0: that
            failure, ``(f, 1) -> (f + 1, 0)``, is never data loss, so it is never held.
        defect_stripe_share: sigma in (0, 1], the share of the failures out of
            ``(k - 1, 1)`` (of a drive other than the holder) that lose sectors; the others
            go to ``(k, 0)``, the defect cleared. 1 for a traditional group. A conditional
            plan integrates the killing share (:meth:`kill_weight`) and lets the other
            failures happen at their natural weight (:meth:`natural_op_weight`).
    """

    parity: int
    drives: int
    conditional: bool
    op_weight: tuple[tuple[float, float], ...]
    ld_weight: tuple[float, ...]
    rebuild_weight: tuple[tuple[float, float], ...] = ()
    holder_weight: tuple[float, ...] = ()
    defect_stripe_share: float = 1.0

    def __post_init__(self) -> None:
        share = self.defect_stripe_share
        if not (math.isfinite(share) and 0 < share <= 1):
            raise ValueError(f"defect_stripe_share must be in (0, 1], got {share!r}")
        if not self.rebuild_weight:
            ones = tuple((1.0, 1.0) for _ in range(self.parity + 1))
            object.__setattr__(self, "rebuild_weight", ones)
        if not self.holder_weight:
            object.__setattr__(self, "holder_weight", (1.0,) * (self.parity + 1))
        if any(not w > 0 for w in self.holder_weight):
            raise ValueError(f"holder weights must be positive, got {self.holder_weight!r}")
        k = self.parity
        # A move that is all loss is integrated, never simulated: no weight can bias it.
        if any(
            self.natural_op_weight(f, latent) == 0 and self.op_weight[f][latent] != 0
            for f in range(k + 1)
            for latent in (0, 1)
            if f + latent <= k
        ):
            raise ValueError(f"a conditional plan holds every killing failure: {self.op_weight!r}")

    def kill_weight(self, f: int, latent: int) -> float:
        """Share of the hazard of the drives but the holder integrated as loss in ``(f, l)``.

        0 for a plain plan (it draws the loss) and outside critical states; in a conditional
        plan 1 in ``(k, 0)`` (every such failure loses the group) and sigma in ``(k - 1, 1)``.
        """
        if not self.conditional or f + latent != self.parity:
            return 0.0
        return self.defect_stripe_share if latent == 1 else 1.0

    def natural_op_weight(self, f: int, latent: int) -> float:
        """The unbiased weight of the drives but the holder in ``(f, l)``: ``1 - kill``.

        The weight at which the conditioned process itself lets them fail; a plan's
        ``op_weight`` over this is its bias (1: none). 0 where every failure is a loss.
        """
        return 1.0 - self.kill_weight(f, latent)

    @property
    def biased(self) -> bool:
        """True when some rate is changed, so the trials carry likelihood ratios."""
        k = self.parity
        return (
            any(
                self.op_weight[f][latent] != self.natural_op_weight(f, latent)
                for f in range(k + 1)
                for latent in (0, 1)
                if f + latent <= k
            )
            or any(w != 1.0 for w in self.ld_weight)
            or any(w != 1.0 for row in self.rebuild_weight for w in row)
            or any(w != 1.0 for w in self.holder_weight)
        )


def plain_plan(parity: int, drives: int, defect_stripe_share: float = 1.0) -> SamplingPlan:
    """Natural rates everywhere: plain Monte Carlo, each trial a 0/1 loss indicator.

    A failure out of ``(k - 1, 1)`` of a drive other than the holder is a loss with
    probability ``defect_stripe_share`` (a uniform drawn per such failure), else it clears
    the defect.
    """
    return SamplingPlan(
        parity=parity,
        drives=drives,
        conditional=False,
        op_weight=tuple((1.0, 1.0) for _ in range(parity + 1)),
        ld_weight=tuple(1.0 for _ in range(parity + 1)),
        defect_stripe_share=defect_stripe_share,
    )


def conditional_plan(parity: int, drives: int, defect_stripe_share: float = 1.0) -> SamplingPlan:
    """Natural rates, killing failures held in critical states (``f + l = k``).

    Conditioning only: in ``(k, 0)`` the drives but the holder are held (weight 0), in
    ``(k - 1, 1)`` they fail at ``1 - sigma`` of their hazard, the share that clears the
    defect (0 for a traditional group, sigma = 1).
    """
    cleared = 1.0 - defect_stripe_share
    op_weight = tuple(
        (0.0 if f == parity else 1.0, cleared if f + 1 == parity else 1.0)
        for f in range(parity + 1)
    )
    return SamplingPlan(
        parity=parity,
        drives=drives,
        conditional=True,
        op_weight=op_weight,
        ld_weight=tuple(1.0 for _ in range(parity + 1)),
        defect_stripe_share=defect_stripe_share,
    )
