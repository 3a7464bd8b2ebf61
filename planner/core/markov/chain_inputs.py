"""The inputs of a stack of chains, one array per input, checked once when made.

What belongs here: :class:`ChainInputs`, the rate list the engine carries from the
generator (:mod:`planner.core.markov.generator`) to the loss figures, the batch evaluators
and the sensitivity analysis, made from values, arrays or :class:`~planner.core.markov.rates.Rates`,
and the selections and reshapes of it that need no second check. One group's rates and
their unit conversions are :mod:`planner.core.markov.rates`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import check_rebuild_streams
from planner.core.markov.rates import Rates, check_correlation

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ChainInputs:
    """The inputs of a stack of chains of one parity count: one array per input.

    The rate list the engine passes from the generator to the loss figures, the batch
    evaluators and the sensitivity analysis, carried once and checked once (here, when it
    is made). The arrays broadcast together to :attr:`shape` (one element per group); the
    parity count is not among them: it is the chain's shape, one per stack.

    Attributes:
        drives: drives per group N (whole numbers; ``N > k`` is checked by
            :meth:`check_parity`, which knows k).
        op_failures_per_hour: operational failure rate of one drive, lambda_op (1/h), > 0.
        latent_defects_per_hour: latent defect rate of one drive, lambda_ld (1/h), >= 0.
        rebuild_hours: mean time to restore a failed drive, 1 / mu_op (h), > 0.
        scrub_hours: mean time for a scrub to find a latent defect, 1 / mu_scrub (h), > 0.
        mission_hours: mission time T (h), >= 0 (the generator alone does not use it).
        defect_stripe_share: sigma in (0, 1], a declustered pool's share of sector-loss
            moves (1 for a traditional group; :mod:`planner.core.markov.chain`).
        rebuild_streams: concurrent rebuilds, one value for the stack (1: one at a time;
            None: every failed drive at once).
        degraded_multiplier: m >= 1 (:class:`Rates`); None when made: 1 everywhere.
        shocks_per_hour: shocks per group-hour >= 0; None when made: 0 everywhere.
        shock_drive_probability: q in [0, 1]; None when made: 0 everywhere.
    """

    drives: FloatArray
    op_failures_per_hour: FloatArray
    latent_defects_per_hour: FloatArray
    rebuild_hours: FloatArray
    scrub_hours: FloatArray
    mission_hours: FloatArray
    defect_stripe_share: FloatArray
    rebuild_streams: int | None = 1
    degraded_multiplier: FloatArray = None  # type: ignore[assignment]
    shocks_per_hour: FloatArray = None  # type: ignore[assignment]
    shock_drive_probability: FloatArray = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        for name, neutral in _CORRELATION_NEUTRAL.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, np.full(self.drives.shape, neutral))
        drives = self.drives
        if np.any(drives != np.round(drives)) or not np.all(np.isfinite(drives)):
            raise ValueError("every group must hold whole drives")
        for name in ("op_failures_per_hour", "rebuild_hours", "scrub_hours"):
            values = getattr(self, name)
            if not np.all(np.isfinite(values) & (values > 0)):
                raise ValueError(f"{name} must be positive and finite")
        lld = self.latent_defects_per_hour
        if not np.all(np.isfinite(lld) & (lld >= 0)):
            raise ValueError("latent_defects_per_hour must be >= 0 and finite")
        share = self.defect_stripe_share
        if not np.all(np.isfinite(share) & (share > 0) & (share <= 1)):
            raise ValueError("defect_stripe_share must be in (0, 1]")
        hours = self.mission_hours
        if not np.all(np.isfinite(hours) & (hours >= 0)):
            raise ValueError("mission_hours must be >= 0 and finite")
        check_rebuild_streams(self.rebuild_streams)
        check_correlation(
            self.degraded_multiplier, self.shocks_per_hour, self.shock_drive_probability
        )

    @classmethod
    def of(
        cls,
        drives: npt.ArrayLike,
        op_failures_per_hour: npt.ArrayLike,
        latent_defects_per_hour: npt.ArrayLike,
        rebuild_hours: npt.ArrayLike,
        scrub_hours: npt.ArrayLike,
        mission_hours: npt.ArrayLike = 0.0,
        *,
        rebuild_streams: int | None = 1,
        defect_stripe_share: npt.ArrayLike = 1.0,
        degraded_multiplier: npt.ArrayLike = 1.0,
        shocks_per_hour: npt.ArrayLike = 0.0,
        shock_drive_probability: npt.ArrayLike = 0.0,
    ) -> ChainInputs:
        """The inputs from values or arrays that broadcast together (units as the fields)."""
        arrays = np.broadcast_arrays(
            *(
                np.asarray(value, dtype=np.float64)
                for value in (
                    drives,
                    op_failures_per_hour,
                    latent_defects_per_hour,
                    rebuild_hours,
                    scrub_hours,
                    mission_hours,
                    defect_stripe_share,
                    degraded_multiplier,
                    shocks_per_hour,
                    shock_drive_probability,
                )
            )
        )
        n, lop, lld, rebuild, scrub, hours, share, m, shocks, q = arrays
        return cls(n, lop, lld, rebuild, scrub, hours, share, rebuild_streams, m, shocks, q)

    @classmethod
    def of_rates(cls, drives: int, rates: Rates, mission_hours: float) -> ChainInputs:
        """The inputs of one group of ``drives`` drives under ``rates`` (0-d arrays)."""
        _check_taken_in([rates])
        return cls.of(
            drives,
            mission_hours=mission_hours,
            rebuild_streams=rates.rebuild_streams,
            **{name: getattr(rates, name) for name in _RATE_FIELDS},
        )

    @classmethod
    def from_rates(
        cls,
        drives: npt.ArrayLike,
        rates: Sequence[Rates],
        mission_hours: npt.ArrayLike,
        *,
        mixed: bool = False,
    ) -> ChainInputs:
        """The inputs of groups of ``drives`` under each of ``rates`` (one stream count).

        Raises ValueError when the rates differ in ``rebuild_streams`` (chains of different
        shapes), unless ``mixed``: then the caller splits the stack by streams itself and
        :attr:`rebuild_streams` is the first group's.
        """
        _check_taken_in(rates)
        streams = {r.rebuild_streams for r in rates}
        if len(streams) > 1 and not mixed:
            raise ValueError("one stack of chains needs one rebuild_streams")
        values = np.array(
            [tuple(getattr(r, name) for name in _RATE_FIELDS) for r in rates],
            dtype=np.float64,
        ).reshape(-1, len(_RATE_FIELDS))
        by_name = dict(zip(_RATE_FIELDS, values.T, strict=True))
        return cls.of(
            drives,
            mission_hours=mission_hours,
            rebuild_streams=rates[0].rebuild_streams if rates else 1,
            **by_name,
        )

    @property
    def shape(self) -> tuple[int, ...]:
        """The broadcast shape of the inputs: one group per element."""
        return self.drives.shape

    @property
    def thinned(self) -> bool:
        """Some group is a declustered pool whose sector-loss moves are thinned (sigma < 1)."""
        return bool(np.any(self.defect_stripe_share != 1.0))

    @property
    def correlated(self) -> bool:
        """Some group's drives fail together: m > 1, or shocks that fail drives."""
        shocks = (self.shocks_per_hour > 0.0) & (self.shock_drive_probability > 0.0)
        return bool(np.any(self.degraded_multiplier != 1.0) or np.any(shocks))

    def check_parity(self, parity: int) -> None:
        """Raise ValueError unless ``parity >= 1`` and every group holds more drives."""
        if parity < 1:
            raise ValueError(f"parity must be at least 1, got {parity}")
        if np.any(self.drives <= parity):
            raise ValueError(f"every group must hold more than {parity} whole drives")

    def per_event(self) -> FloatArray:
        """The rates per hour (lambda_op, lambda_ld, mu_op, mu_scrub, shocks): ``shape + (5,)``."""
        return np.stack(
            (
                self.op_failures_per_hour,
                self.latent_defects_per_hour,
                1.0 / self.rebuild_hours,
                1.0 / self.scrub_hours,
                self.shocks_per_hour,
            ),
            axis=-1,
        )

    def ravel(self) -> ChainInputs:
        """The same groups in one dimension (C order)."""
        return self._each(np.ravel)

    def take(self, index: npt.NDArray[np.intp] | npt.NDArray[np.bool_] | slice) -> ChainInputs:
        """The inputs of the groups ``index`` selects.

        ``index``: indices, a mask over :attr:`shape`, or a slice (views of these arrays).
        """
        return self._each(lambda values: values[index])

    def independent(self) -> ChainInputs:
        """The same groups with the correlation taken out (m = 1, no shocks)."""
        return dataclasses.replace(
            self,
            degraded_multiplier=np.ones(self.shape),
            shocks_per_hour=np.zeros(self.shape),
            shock_drive_probability=np.zeros(self.shape),
        )

    def _each(self, pick: Callable[[FloatArray], FloatArray]) -> ChainInputs:
        """``pick`` applied to every array (the stream count kept).

        Not checked again: every value was checked when this one was made, and ``pick``
        only selects or reshapes them (a sweep splits its inputs by chain shape and block,
        and checking each piece again cost more than building its generators).
        """
        picked = object.__new__(ChainInputs)
        for name in _ARRAY_FIELDS:
            object.__setattr__(picked, name, pick(getattr(self, name)))
        object.__setattr__(picked, "rebuild_streams", self.rebuild_streams)
        return picked


_RATE_FIELDS = (
    "op_failures_per_hour",
    "latent_defects_per_hour",
    "rebuild_hours",
    "scrub_hours",
    "defect_stripe_share",
    "degraded_multiplier",
    "shocks_per_hour",
    "shock_drive_probability",
)
"""The fields of :class:`Rates` that :class:`ChainInputs` holds one array of."""

_CORRELATION_NEUTRAL = {
    "degraded_multiplier": 1.0,
    "shocks_per_hour": 0.0,
    "shock_drive_probability": 0.0,
}
"""The correlation inputs and their neutral values (independent drives)."""


_ARRAY_FIELDS = tuple(
    f.name for f in dataclasses.fields(ChainInputs) if f.name != "rebuild_streams"
)
"""The fields of :class:`ChainInputs` that hold one array each."""


def _check_taken_in(rates: Sequence[Rates]) -> None:
    """ValueError for scenario rates a layout has not adapted (``Layout.chain_rates``).

    Hot spares with a wait to shorten, and a workload's latent-defect rate per data drive,
    which a group's chain takes as the mean over its drives: a path that skipped
    ``chain_rates`` would give every drive a data drive's rate (mirrors' risk 2x).
    """
    if any(r.hot_spares and r.replace_delay_hours for r in rates):
        raise ValueError("hot spares not taken in: give Layout.chain_rates(rates, groups)")
    if any(r.defects_per_data_drive for r in rates):
        raise ValueError("a data drive's defect rate not spread: give Layout.chain_rates(rates)")
