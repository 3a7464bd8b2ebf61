"""The simulator's inputs as distributions: the non-constant counterpart of the rates.

The Markov model (:mod:`planner.core.markov.chain`) needs constant rates; the simulator
(:mod:`planner.core.simulation.simulate`) takes any time laws
(:mod:`planner.core.simulation.time_laws`). NS3574 itself notes that "the best method,
which accounts for nonconstant failure and repair rates, is Monte Carlo simulation"
[Elerath07b]; Elerath and Pecht (2009) fitted three-parameter Weibulls to field data, kept
here as :data:`ELERATH_2009`.

What belongs here: :class:`DistributionSet` (a group's time laws, latent defects, rebuild
streams and correlation, as :class:`~planner.core.markov.rates.Rates` holds them for the
chain), the published preset, and the sets made from a chain's rates
(:func:`exponential_from_rates`, :meth:`DistributionSet.at_means`).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TypedDict

from planner.core.markov.rates import Rates, check_correlation
from planner.core.markov.workload_reads import WorkloadReads
from planner.core.simulation.time_laws import Distribution, Exponential, Weibull


@dataclass(frozen=True)
class DistributionSet:
    """The four inputs of the simulator, the non-constant counterpart of :class:`Rates`.

    Attributes:
        operational_failure: time to operational failure of one new drive (h).
        restoration: duration of one rebuild (h), one rebuild at a time.
        scrub: time from a latent defect's appearance to its repair by the scrub (h),
            counted while no drive is failed (see :mod:`planner.core.simulation.simulate`).
        latent_defects_per_hour: latent defect rate of one drive (per drive-hour), constant.
        rebuild_streams: rebuilds that run at once: 1 (the paper's model), a number, or None
            (every failed drive at once); each rebuild draws its own duration.
        replace_delay_hours: mean hours of each restoration spent waiting for a replacement
            drive (``restore.replace_delay_hours``, counted inside ``restoration``). A
            declustered pool with a free distributed spare does not wait
            (:meth:`planner.core.arrays.layouts.Layout.chain_distributions`), as in the chain.
        hot_spares: dedicated spares the aggregate shares, as ``Rates.hot_spares``: taken
            in only by ``Layout.chain_distributions(distributions, groups)``.
        defect_stripe_share: sigma in (0, 1], the share of the failures out of ``(k - 1, 1)``
            (a drive other than the defect's holder) that lose sectors: 1 for a traditional
            group, a declustered pool's ``prod (w - 1 - i) / (C - 1 - i)``
            (:func:`planner.core.arrays.declustered.defect_stripe_share`), set by
            :meth:`planner.core.arrays.layouts.Layout.chain_distributions` as ``Rates``' is by
            ``chain_rates``. The other failures clear the defect (``-> (k, 0)``).
        degraded_multiplier: m >= 1: while a drive of the group is down, every working
            drive's hazard is m times its law's (for a Weibull law too: the hazard at the
            drive's age, multiplied while degraded; docs/correlated.md).
        shocks_per_hour: common-cause shocks to the group per hour (a Poisson process).
        shock_drive_probability: q, the probability that a shock fails each working drive,
            the latent defect's holder included (Binomial(W, q) drives at once).
        drive_age_hours_at_start: every drive's age (h of service) when the mission starts:
            its failure clock starts at that age of ``operational_failure`` (0: new drives).
        renew_replaced: a rebuilt drive is new, its clock at age 0 (the default, and the
            field's truth: Elerath and Pecht 2009); False keeps the batch's age for it, the
            assumption of the ageing chain (:mod:`planner.core.markov.piecewise`), for
            comparing the two.
        defects_per_data_drive: ``latent_defects_per_hour`` is a data drive's share of a
            workload's reads, as ``Rates.defects_per_data_drive``: spread over the group's
            drives by ``Layout.chain_distributions``.
        workload_reads: the workload's reads behind that rate, as ``Rates.workload_reads``.
    """

    operational_failure: Distribution
    restoration: Distribution
    scrub: Distribution
    latent_defects_per_hour: float
    rebuild_streams: int | None = 1
    replace_delay_hours: float = 0.0
    defect_stripe_share: float = 1.0
    degraded_multiplier: float = 1.0
    shocks_per_hour: float = 0.0
    shock_drive_probability: float = 0.0
    drive_age_hours_at_start: float = 0.0
    renew_replaced: bool = True
    hot_spares: int = 0
    defects_per_data_drive: bool = False
    workload_reads: WorkloadReads | None = None

    @property
    def shocks(self) -> bool:
        """Shocks that can fail a drive: a positive rate and probability."""
        return self.shocks_per_hour > 0.0 and self.shock_drive_probability > 0.0

    def __post_init__(self) -> None:
        check_correlation(
            self.degraded_multiplier, self.shocks_per_hour, self.shock_drive_probability
        )
        share = self.defect_stripe_share
        if not (math.isfinite(share) and 0 < share <= 1):
            raise ValueError(f"defect_stripe_share must be in (0, 1], got {share!r}")
        value = self.latent_defects_per_hour
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"latent_defects_per_hour must be >= 0, got {value!r}")
        streams = self.rebuild_streams
        if streams is not None and (isinstance(streams, bool) or streams < 1):
            raise ValueError(f"rebuild_streams must be >= 1 or None, got {streams!r}")
        age = self.drive_age_hours_at_start
        if not (math.isfinite(age) and age >= 0):
            raise ValueError(f"drive_age_hours_at_start must be >= 0, got {age!r}")

    def with_restoration_scaled(self, factor: float) -> DistributionSet:
        """A declustered pool's set: every restoration ``factor`` times as long, one at a time.

        The counterpart of :meth:`planner.core.arrays.layouts.Layout.chain_rates`; the wait for a
        replacement is inside the scaled law, so none is left to add.
        """
        return dataclasses.replace(
            self,
            restoration=self.restoration.time_scaled(factor),
            rebuild_streams=1,
            replace_delay_hours=0.0,
            hot_spares=0,
        )

    def at_means(self, rates: Rates) -> DistributionSet:
        """These laws' shapes with ``rates``' means: the same scenario, other time laws.

        Each time law is scaled in time (:meth:`Weibull.time_scaled`: shape kept, scale and
        location multiplied) so that its mean is the chain's: time to failure
        ``1 / op_failures_per_hour``, rebuild ``rebuild_hours``, scrub ``scrub_hours``; the
        latent defect rate, the concurrent rebuilds and sigma are ``rates``'. With exponential
        shapes the result is :func:`exponential_from_rates` of ``rates``.
        """
        targets = _mean_hours(rates)
        laws = {
            name: law.time_scaled(targets[name] / law.mean_hours)
            for name, law in self.time_laws().items()
        }
        return DistributionSet(
            operational_failure=laws["operational_failure"],
            restoration=laws["restoration"],
            scrub=laws["scrub"],
            latent_defects_per_hour=rates.latent_defects_per_hour,
            rebuild_streams=rates.rebuild_streams,
            replace_delay_hours=rates.replace_delay_hours,
            defect_stripe_share=rates.defect_stripe_share,
            hot_spares=rates.hot_spares,
            defects_per_data_drive=rates.defects_per_data_drive,
            workload_reads=rates.workload_reads,
            **correlation_of(rates),
        )

    def time_laws(self) -> dict[str, Distribution]:
        """The three time laws by field name: operational_failure, restoration, scrub."""
        return {
            "operational_failure": self.operational_failure,
            "restoration": self.restoration,
            "scrub": self.scrub,
        }

    def means_apart_from(self, rates: Rates, rel_tol: float = 1e-3) -> tuple[str, ...]:
        """The inputs whose mean here is not ``rates``' (beyond ``rel_tol``), by field name.

        The three time laws' means (h) against the chain's, and the latent defect rate (per
        drive-hour). Empty: these laws describe the chain's scenario, only the shapes differ.
        """
        targets = _mean_hours(rates)
        apart = [
            name
            for name, law in self.time_laws().items()
            if not math.isclose(law.mean_hours, targets[name], rel_tol=rel_tol)
        ]
        if not math.isclose(
            self.latent_defects_per_hour, rates.latent_defects_per_hour, rel_tol=rel_tol
        ):
            apart.append("latent_defects_per_hour")
        return tuple(apart)

    def without_latent_defects(self) -> DistributionSet:
        """The same laws with no latent defects: whose P(loss) is P(group lost).

        P(group lost) is the probability that k + 1 drives are down at once, sector losses
        written off and the group going on (issue 20). Whether a drive fails, and when its
        rebuild ends, does not depend on its unreadable sectors, and a sector loss does not
        stop the rebuild; so the event is a function of the failures and rebuilds alone, and
        their process is the same with defects off, for any laws: every working drive fails
        at its hazard, the one holding a defect included. A run with defects ends at its
        first sector loss, so it could not write them off; this one has none to write off.
        With exponential laws this set is the birth-death chain of failures,
        (N - f) lambda_op up, min(f, streams) mu_op down. Off for good: no workload's reads
        left for :meth:`planner.core.arrays.layouts.Layout.chain_distributions` to take over
        the groups' data drives again (they put the defects back: a re-check found
        P(group lost) = P(loss) with a workload).
        """
        return dataclasses.replace(
            self, latent_defects_per_hour=0.0, defects_per_data_drive=False, workload_reads=None
        )

    def streams_for(self, parity: int) -> int:
        """Rebuild streams that can ever be busy in a group with ``parity`` parity drives."""
        return parity + 1 if self.rebuild_streams is None else min(self.rebuild_streams, parity + 1)


def _mean_hours(rates: Rates) -> dict[str, float]:
    """The chain's mean times (h) by the name of the time law that has them."""
    return {
        "operational_failure": 1.0 / rates.op_failures_per_hour,
        "restoration": rates.rebuild_hours,
        "scrub": rates.scrub_hours,
    }


ELERATH_2009 = DistributionSet(
    operational_failure=Weibull(shape=1.2, scale_hours=461_386.0),
    restoration=Weibull(shape=2.0, scale_hours=12.0, location_hours=6.0),
    scrub=Weibull(shape=3.0, scale_hours=168.0, location_hours=6.0),
    latent_defects_per_hour=1.08e-4,
)
"""Elerath and Pecht (2009), for NS3574's assumptions: time to failure Weibull(1.2, 461,386 h),
restoration Weibull(2.0, 12 h, location 6 h), scrub Weibull(3, 168 h, location 6 h),
1.08e-4 latent defects per drive-hour."""


def exponential_from_rates(rates: Rates) -> DistributionSet:
    """The constant rates of the Markov model as exponential distributions.

    With these the simulator and :func:`planner.core.markov.transient.p_loss_group` describe the
    same
    process, so they must agree within the simulation's confidence interval.
    """
    return DistributionSet(
        operational_failure=Exponential(1.0 / rates.op_failures_per_hour),
        restoration=Exponential(rates.rebuild_hours),
        scrub=Exponential(rates.scrub_hours),
        latent_defects_per_hour=rates.latent_defects_per_hour,
        rebuild_streams=rates.rebuild_streams,
        replace_delay_hours=rates.replace_delay_hours,
        defect_stripe_share=rates.defect_stripe_share,
        hot_spares=rates.hot_spares,
        defects_per_data_drive=rates.defects_per_data_drive,
        workload_reads=rates.workload_reads,
        **correlation_of(rates),
    )


class CorrelationValues(TypedDict):
    """The correlation inputs by field name, the same in :class:`Rates` and here."""

    degraded_multiplier: float
    shocks_per_hour: float
    shock_drive_probability: float


def correlation_of(rates: Rates) -> CorrelationValues:
    """The correlation inputs of ``rates`` by field name (the same names here)."""
    return {
        "degraded_multiplier": rates.degraded_multiplier,
        "shocks_per_hour": rates.shocks_per_hour,
        "shock_drive_probability": rates.shock_drive_probability,
    }
