"""Model inputs in the units of the paper, and their conversion to per-hour rates.

Conventions follow NS3574: a year is 8,760 hours; the operational failure rate per drive is
the annualized return rate divided by 8,760 h; the latent defect rate per drive-hour is the
read error rate (errors per byte) times the bytes read per hour (Table 1); the restoration
and scrub rates are the reciprocals of their mean durations (12 h and 168 h in the paper).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.markov.enclosures import Enclosures
from planner.core.markov.workload_reads import WorkloadReads

FloatArray = npt.NDArray[np.float64]

HOURS_PER_YEAR = 8_760.0
"""The paper's year: 365 days of 24 hours."""


def arr_to_failures_per_hour(arr: float) -> float:
    """Operational failures per drive-hour from an annualized return rate (fraction/year).

    NS3574, "Operational failures": an ARR of 1.9% gives 0.019 / 8,760 h = 2.17e-6 per hour.
    """
    return arr / HOURS_PER_YEAR


def afr_to_failures_per_hour(afr: float) -> float:
    """Operational failures per drive-hour from an annualized failure rate (a probability).

    An AFR is the probability of failing within a year under a constant rate, so the rate is
    ``-ln(1 - AFR) / 8,760 h``; for small AFR this is AFR / 8,760 h.
    """
    return -math.log1p(-afr) / HOURS_PER_YEAR


def mtbf_to_failures_per_hour(mtbf_hours: float) -> float:
    """Operational failures per drive-hour from a mean time between failures in hours."""
    return 1.0 / mtbf_hours


def read_errors_to_latent_defects_per_hour(
    read_errors_per_byte: float, bytes_read_per_hour: float
) -> float:
    """Latent defects per drive-hour: read errors per byte x bytes read per hour (Table 1)."""
    return read_errors_per_byte * bytes_read_per_hour


@dataclass(frozen=True)
class Rates:
    """Per-drive and per-group rates of the Markov model, all per hour.

    Attributes:
        op_failures_per_hour: operational failure rate of one drive, lambda_op (1/h).
        latent_defects_per_hour: latent defect rate of one drive, lambda_ld (1/h).
        rebuild_hours: mean time to restore a failed drive, 1 / mu_op (h).
        scrub_hours: mean time for a scrub to find a latent defect, 1 / mu_scrub (h).
        rebuild_streams: rebuilds that run at once: 1 (the paper's model, one at a time),
            a number s (a state with f failed drives rebuilds at ``min(f, s) * mu_op``), or
            None (every failed drive at once).
        replace_delay_hours: the part of ``rebuild_hours`` spent waiting for a replacement
            drive before the rebuild starts (h); a declustered pool with a distributed
            spare does not wait (:func:`planner.core.arrays.declustered.pool_rebuild_hours`).
        defect_stripe_share: sigma, the share of sector-loss moves a latent defect makes
            with p - 1 drives down when one more fails: 1 for a traditional group (every
            stripe spans every drive), less for a declustered pool
            (:func:`planner.core.arrays.declustered.defect_stripe_share`, issue 20).
        degraded_multiplier: m >= 1: each working drive fails m times as often while a
            drive of the group is down (1: independent drives; docs/correlated.md).
        shocks_per_hour: common-cause shocks to one group per hour (0: none).
        shock_drive_probability: q in [0, 1], the probability that a shock fails each
            working drive, the latent defect's holder included
            (:mod:`planner.core.markov.shocks`).
        enclosures: the enclosures the group's drives share and their placement
            (docs/domains.md), or None; not with correlated failures.
        hot_spares: dedicated spares the aggregate shares (>= 0): a chain takes them in only
            through ``Layout.chain_rates(rates, groups)`` (:mod:`planner.core.arrays.hot_spares`).
        defects_per_data_drive: ``latent_defects_per_hour`` is a DATA drive's, its share of a
            workload's reads (:mod:`planner.core.arrays.defects`): a group's drives share its
            data drives' reads, so its chain takes the mean over them,
            ``latent_defects_per_hour x data drives / drives`` (``reads_spread``,
            through ``Layout.chain_rates``). False: every drive's rate as it is (given, or
            measured per drive).
        workload_reads: with ``defects_per_data_drive``, the workload's reads behind the
            rate, so that an aggregate's chain takes a data drive's rate over the data
            drives its groups hold (``reads_spread``, through
            ``Layout.chain_rates(rates, groups)``); None: the rate as it is.
    """

    op_failures_per_hour: float
    latent_defects_per_hour: float
    rebuild_hours: float
    scrub_hours: float
    rebuild_streams: int | None = 1
    replace_delay_hours: float = 0.0
    defect_stripe_share: float = 1.0
    degraded_multiplier: float = 1.0
    shocks_per_hour: float = 0.0
    shock_drive_probability: float = 0.0
    enclosures: Enclosures | None = None
    hot_spares: int = 0
    defects_per_data_drive: bool = False
    workload_reads: WorkloadReads | None = None

    def __post_init__(self) -> None:
        for name in ("op_failures_per_hour", "rebuild_hours", "scrub_hours"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive finite number, got {value!r}")
        if self.enclosures is not None and self.enclosures.active and self.correlated:
            raise ValueError("correlated failures and enclosures are not modelled together")
        if not (math.isfinite(self.latent_defects_per_hour) and self.latent_defects_per_hour >= 0):
            raise ValueError(
                f"latent_defects_per_hour must be >= 0, got {self.latent_defects_per_hour!r}"
            )
        streams = self.rebuild_streams
        if streams is not None and (isinstance(streams, bool) or streams < 1):
            raise ValueError(f"rebuild_streams must be >= 1 or None, got {streams!r}")
        delay = self.replace_delay_hours
        if not (math.isfinite(delay) and 0.0 <= delay < self.rebuild_hours):
            raise ValueError(
                f"replace_delay_hours must be >= 0 and below rebuild_hours "
                f"({self.rebuild_hours!r}), got {delay!r}"
            )
        share = self.defect_stripe_share
        if not (math.isfinite(share) and 0.0 < share <= 1.0):
            raise ValueError(f"defect_stripe_share must be in (0, 1], got {share!r}")
        check_correlation(
            self.degraded_multiplier, self.shocks_per_hour, self.shock_drive_probability
        )

    @property
    def correlated(self) -> bool:
        """Drives do not fail independently: a degraded multiplier or shocks that fail any."""
        return self.degraded_multiplier != 1.0 or (
            self.shocks_per_hour > 0.0 and self.shock_drive_probability > 0.0
        )

    def independent(self) -> Rates:
        """The same rates with the correlation taken out (m = 1, no shocks)."""
        return dataclasses.replace(
            self, degraded_multiplier=1.0, shocks_per_hour=0.0, shock_drive_probability=0.0
        )

    def with_latent_defects(self, per_hour: float | None) -> Rates:
        """The same rates with every drive's own latent-defect rate, as a chain takes it.

        None: these rates as they are. The rate is each drive's (a sized aggregate's chain
        rate, as its row shows it): no layout spreads it further.
        """
        if per_hour is None:
            return self
        if per_hour == self.latent_defects_per_hour and not self.defects_per_data_drive:
            return self
        return dataclasses.replace(
            self, latent_defects_per_hour=per_hour, defects_per_data_drive=False
        )

    def with_read_defects(self, per_data_drive_hour: float) -> Rates:
        """The same rates with a data drive's latent-defect rate from a workload's reads.

        An aggregate sized for a workload spreads its reads over its own data drives, so it
        meets defects at its own rate (docs/drives.md); its chain takes the mean over all
        its drives (:attr:`defects_per_data_drive`).
        """
        return dataclasses.replace(
            self, latent_defects_per_hour=per_data_drive_hour, defects_per_data_drive=True
        )

    @property
    def rebuilds_per_hour(self) -> float:
        """Restoration rate mu_op (1/h)."""
        return 1.0 / self.rebuild_hours

    @property
    def scrubs_per_hour(self) -> float:
        """Scrub rate mu_scrub (1/h)."""
        return 1.0 / self.scrub_hours

    def by_symbol(self) -> dict[str, float]:
        """Rates keyed by the model's symbol names (``lambda_op`` ... ``mu_scrub``)."""
        return {
            "lambda_op": self.op_failures_per_hour,
            "lambda_ld": self.latent_defects_per_hour,
            "mu_op": self.rebuilds_per_hour,
            "mu_scrub": self.scrubs_per_hour,
        }


def check_correlation(
    degraded_multiplier: npt.ArrayLike, shocks_per_hour: npt.ArrayLike, probability: npt.ArrayLike
) -> None:
    """Raise ValueError unless m >= 1, the shock rate >= 0 and q in [0, 1], all finite.

    Three numbers (one :class:`Rates`, made once per sweep point) are checked as numbers:
    the arrays' path costs ~10 us a call, a tenth of a sweep's per-point work.
    """
    numbers = (degraded_multiplier, shocks_per_hour, probability)
    if all(type(x) in (float, int) for x in numbers):
        _check_correlation_numbers(*(float(x) for x in numbers))  # type: ignore[arg-type]
        return
    m = np.asarray(degraded_multiplier, dtype=np.float64)
    if not np.all(np.isfinite(m) & (m >= 1.0)):
        raise ValueError("degraded_multiplier must be >= 1 and finite")
    rate = np.asarray(shocks_per_hour, dtype=np.float64)
    if not np.all(np.isfinite(rate) & (rate >= 0.0)):
        raise ValueError("shocks_per_hour must be >= 0 and finite")
    q = np.asarray(probability, dtype=np.float64)
    if not np.all((q >= 0.0) & (q <= 1.0)):
        raise ValueError("shock_drive_probability must be in [0, 1]")


def _check_correlation_numbers(m: float, rate: float, q: float) -> None:
    """:func:`check_correlation` of three numbers, with its messages."""
    if not (math.isfinite(m) and m >= 1.0):
        raise ValueError("degraded_multiplier must be >= 1 and finite")
    if not (math.isfinite(rate) and rate >= 0.0):
        raise ValueError("shocks_per_hour must be >= 0 and finite")
    if not (0.0 <= q <= 1.0):
        raise ValueError("shock_drive_probability must be in [0, 1]")


PAPER_RATES = Rates(
    op_failures_per_hour=arr_to_failures_per_hour(0.019),
    latent_defects_per_hour=1.08e-4,
    rebuild_hours=12.0,
    scrub_hours=168.0,
)
"""NS3574's assumptions: ARR 1.9%, 1.08e-4 latent defects per hour, 12 h rebuild, 168 h scrub."""
