"""What a simulation run gives: P(loss), its 95% interval, and how far to trust it.

The estimator that ran, the estimate and its interval, and the diagnostics behind
:attr:`SimulationResult.warning`. :mod:`planner.core.simulation.simulate` runs the trials;
this module holds what it returns, so the front ends and reports read results without the
machinery that made them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from planner.core.markov.transient import p_loss_aggregate
from planner.core.simulation.estimate import (
    MAX_WEIGHT_SHARE,
    MIN_EFFECTIVE_TRIALS,
    MIN_TRIALS_REL_ERROR,
)


class Method(StrEnum):
    """Estimator of the simulation."""

    AUTO = "auto"
    CONDITIONAL = "conditional"
    BIASED = "biased"
    PLAIN = "plain"


@dataclass(frozen=True)
class SimulationResult:
    """Estimated probability that one group loses data within the mission.

    Attributes:
        method: the estimator that ran: ``"plain"``, ``"conditional"`` or ``"biased"``
            (``auto`` resolved).
        parity: parity drives per group, k.
        drives: drives per group, N.
        mission_hours: mission length (h).
        trials: simulated groups.
        p_loss_group: the estimate of P(loss) for one group.
        ci95_low: lower end of the 95% confidence interval.
        ci95_high: upper end of the 95% confidence interval.
        rel_error: half-width of the interval over the estimate (inf when it is 0).
        std_error: standard error of the estimate.
        hits: trials that contributed: losses (plain) or trials with a non-zero estimate.
        seed: the seed of the random generator, if one was given.
        effective_trials: Kish effective sample size ``(sum y)^2 / sum y^2`` (0 when no
            trial contributed).
        max_weight_share: share of the sum carried by the largest trial (0 to 1).
        rebuild_streams: concurrent rebuilds simulated (1 = one at a time, None = all).
        stopped_by: what ended the run: ``"trials"``, ``"rel_error"`` or ``"time_budget"``.
    """

    method: str
    parity: int
    drives: int
    mission_hours: float
    trials: int
    p_loss_group: float
    ci95_low: float
    ci95_high: float
    rel_error: float
    std_error: float
    hits: int
    seed: int | None = None
    effective_trials: float = 0.0
    max_weight_share: float = 0.0
    rebuild_streams: int | None = 1
    stopped_by: str = "trials"

    @property
    def reliable(self) -> bool:
        """False when the diagnostics say the interval cannot be trusted."""
        return not self.warning

    @property
    def warning(self) -> str:
        """Why the interval cannot be trusted, or ``""``.

        A plain (Clopper-Pearson) interval is exact for any number of losses, even none; the
        normal interval of a weighted estimator needs enough effective trials, and at least
        :data:`~planner.core.simulation.estimate.MIN_TRIALS_REL_ERROR` of them whatever its
        sample shows: with rare large trials (a declustered pool's), exactly 1,500 trials
        covered the value 90% of the time, not 95%, and the runs that missed were those
        that had met no rare trial, whose sample looks tame (tests/core/test_sim_stopping.py).
        """
        if self.method == Method.PLAIN:
            return ""
        if self.hits == 0:
            return (
                "no trial reached data loss or a critical state: no interval can be given (0 "
                "is these trials' estimate, not a bound); run more trials, or --method plain "
                "for a Clopper-Pearson bound"
            )
        if self.effective_trials < MIN_EFFECTIVE_TRIALS:
            return (
                f"effective sample size {self.effective_trials:.0f} < "
                f"{MIN_EFFECTIVE_TRIALS:.0f}: the interval cannot be trusted, run more trials"
            )
        if self.max_weight_share > MAX_WEIGHT_SHARE:
            return (
                f"one trial carries {100 * self.max_weight_share:.0f}% of the estimate: the "
                "interval cannot be trusted, run more trials"
            )
        if self.trials < MIN_TRIALS_REL_ERROR:
            return (
                f"{self.trials:,} trials < {MIN_TRIALS_REL_ERROR:,}: a weighted interval this "
                "short can be too narrow (rare large trials not met yet), run more trials"
            )
        return ""

    def p_loss_aggregate(self, groups: int) -> float:
        """P(loss) of an aggregate of ``groups`` independent groups: 1 - (1 - p)^g."""
        return p_loss_aggregate(self.p_loss_group, groups)

    def ci95_aggregate(self, groups: int) -> tuple[float, float]:
        """The 95% interval mapped to ``groups`` groups (1 - (1 - p)^g is increasing)."""
        return (
            p_loss_aggregate(self.ci95_low, groups),
            p_loss_aggregate(self.ci95_high, groups),
        )
