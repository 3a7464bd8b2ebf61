"""Model inputs in the units of the paper, and their conversion to per-hour rates.

Conventions follow NS3574: a year is 8,760 hours; the operational failure rate per drive is
the annualized return rate divided by 8,760 h; the latent defect rate per drive-hour is the
read error rate (errors per byte) times the bytes read per hour (Table 1); the restoration
and scrub rates are the reciprocals of their mean durations (12 h and 168 h in the paper).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
    """

    op_failures_per_hour: float
    latent_defects_per_hour: float
    rebuild_hours: float
    scrub_hours: float
    rebuild_streams: int | None = 1
    replace_delay_hours: float = 0.0
    defect_stripe_share: float = 1.0

    def __post_init__(self) -> None:
        for name in ("op_failures_per_hour", "rebuild_hours", "scrub_hours"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive finite number, got {value!r}")
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


PAPER_RATES = Rates(
    op_failures_per_hour=arr_to_failures_per_hour(0.019),
    latent_defects_per_hour=1.08e-4,
    rebuild_hours=12.0,
    scrub_hours=168.0,
)
"""NS3574's assumptions: ARR 1.9%, 1.08e-4 latent defects per hour, 12 h rebuild, 168 h scrub."""
