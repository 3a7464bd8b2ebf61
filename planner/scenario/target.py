"""What ``planner recommend`` looks for: the ``target:`` and ``search:`` sections.

```yaml
target:
  usable_tb: 400          # data stored (TB or TiB); default: the workload's capacity, else
                          # aggregate.data_disks
  max_p_loss: 0.01%       # P(loss) of the aggregate over the mission (or min_nines: 4); a
                          # bare 0.01 is a fraction, 1%, and the outputs say so beside it
  max_p_group_lost: 1e-6  # P(group lost) of the aggregate over the mission; either or both
                          # (neither: P(loss) at most 1 in 10,000, as with no target: section)
  max_p_unavailable: 1%   # with enclosures: P(some group stops serving) (docs/domains.md)
  max_drives: 500         # optional
  max_cost: 250000        # optional budget, in the scenario's currency (needs drive.price)
search:                   # optional: the layouts considered (these are the defaults)
  mirrors: true
  parity: [1, 2, 3]
  group_sizes: [3, 30]
  declustered: true       # default: only when a layout of the scenario is a dRAID pool
  draid_data: [4, 8, 16]
  draid_children: [24, 48, 96]   # default: widths from d + p + s to 255, right-sized ones too
  draid_spares: [1, 2]
  write_penalty: 1        # optional: disk I/Os per host write of parity layouts (not pools)
  members_per_enclosure: [1, 2, 3, 4, 6, 12]   # optional, with enclosures: (docs/domains.md)
```
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from planner.core.arrays.presets import MAX_PARITY
from planner.core.design.candidates import SearchSpace
from planner.core.design.recommend import Target
from planner.scenario.base import Count, FieldError, FrozenModel, percent_value, positive
from planner.scenario.errors import shown
from planner.scenario.layout import MAX_CHILDREN
from planner.scenario.limits import MAX_BUDGET, MIN_TARGET_P_LOSS
from planner.scenario.units import Terabytes, tb_schema

MAX_GROUP_SIZE_SEARCHED = 1000
"""Largest parity group a search may consider (the layouts' own limit)."""


def _probability(value: object) -> object:
    """``"0.01%"`` -> 1e-4; numbers pass through for the float validation."""
    if not isinstance(value, str):
        return value
    fraction = percent_value(value)
    if fraction is None:
        raise ValueError(
            f"{shown(value)} is not a probability; write 1e-4 or a percentage like 0.01%"
        )
    return fraction


def _percent_text(fraction: float) -> str | float:
    """``1e-4`` -> ``"0.01%"``: a percentage that reads back (:func:`_probability`) exactly.

    The fraction itself where no nearby decimal does (then it reads back as a bare one).
    """
    percent = fraction * 100
    for near in (percent, math.nextafter(percent, 0), math.nextafter(percent, math.inf)):
        text = f"{near!r}%"
        if percent_value(text) == fraction:
            return text
    return fraction


def _raidz_choice(value: object) -> object:
    """``search.raidz`` as written: true, false or both; anything else said in one line.

    Pydantic's own words for the union named its branch (``search.raidz.bool``) and
    passed ``1`` as true.
    """
    if value is None or isinstance(value, bool) or value == "both":
        return value
    hint = "; YAML 1.2 reads it as text" if str(value).lower() in ("yes", "no", "on", "off") else ""
    raise ValueError(f"expected true, false or both, got {shown(value)}{hint}")


RaidzChoice = Annotated[bool | Literal["both"] | None, BeforeValidator(_raidz_choice)]
"""``search.raidz``: RAID-Z parity groups (true), hardware RAID (false), or both."""


BARE_FRACTION_KEYS = ("max_p_loss", "max_p_group_lost", "max_p_unavailable")
"""The target's probabilities, each a fraction (0.0001) or a percentage (0.01%)."""

Probability = Annotated[
    float,
    BeforeValidator(_probability),
    Field(strict=True, ge=MIN_TARGET_P_LOSS, lt=1, allow_inf_nan=False),
]


class TargetSpec(FrozenModel):
    """The target a recommended layout must meet."""

    usable_tb: (
        Annotated[
            Terabytes,
            Field(strict=True, gt=0, le=1e7, allow_inf_nan=False),
            tb_schema(0, 1e7, above=True),
        ]
        | None
    ) = Field(
        default=None,
        description="Data the aggregate must store (TB, 10^12 bytes, or e.g. 363.8 TiB), "
        "the same amount as workload.capacity_tb: each data drive stores drive.capacity_tb "
        "x drive.usable_fraction (default 0.9). Default: the workload's capacity, else "
        "aggregate.data_disks drives.",
    )
    max_p_loss: Probability | None = Field(
        default=None,
        description="Largest acceptable P(loss) of the aggregate over the mission (any loss, "
        "a few sectors included), e.g. 0.01% or 1e-4. A bare number is a fraction (0.01 is "
        "1%; the outputs say 'given as the fraction 0.01' beside it): write % for a "
        "percentage. Give this or min_nines, and/or max_p_group_lost; with none of them, "
        "1e-4 as when there is no target: section.",
    )
    min_nines: float | None = positive(
        default=None,
        le=15,
        description="Smallest acceptable nines of reliability over the mission: 4 means "
        "P(loss) at most 1e-4. Give this or max_p_loss.",
    )
    max_p_group_lost: Probability | None = Field(
        default=None,
        description="Largest acceptable P(group lost) of the aggregate over the mission: "
        "the chance some group has k + 1 drives down at once and is lost whole, e.g. "
        "0.0001% or 1e-6 (a bare number is a fraction, as for max_p_loss). Alone or beside "
        "max_p_loss / min_nines.",
    )
    max_p_unavailable: Probability | None = Field(
        default=None,
        description="Largest acceptable P(unavailable) of the aggregate over the mission: "
        "the chance some group stops serving at least once (an enclosure outage beyond its "
        "parity, or a loss), e.g. 1% (a bare number is a fraction, as for max_p_loss); "
        "needs an enclosures section (docs/domains.md).",
    )
    max_drives: Count | None = Field(
        default=None, ge=1, le=1_000_000, description="Most drives the aggregate may have."
    )
    max_cost: float | None = positive(
        default=None,
        le=MAX_BUDGET,
        description="Budget: the largest acceptable total cost of ownership over the "
        "mission, in the scenario's currency (needs drive.price).",
    )

    _bare: frozenset[str] = PrivateAttr(default=frozenset())

    @model_validator(mode="wrap")
    @classmethod
    def _note_bare_fractions(
        cls, data: Any, handler: ModelWrapValidatorHandler[TargetSpec]
    ) -> TargetSpec:
        """Which probabilities the file gave as bare numbers (0.01, 1e-4), not as 0.01%."""
        spec = handler(data)
        if isinstance(data, dict):
            spec._bare = frozenset(
                key
                for key in BARE_FRACTION_KEYS
                if isinstance(data.get(key), int | float) and not isinstance(data[key], bool)
            )
        return spec

    @model_serializer(mode="wrap")
    def _dump_as_given(self, handler: SerializerFunctionWrapHandler) -> Any:
        """A limit given as a percentage dumps as one, so that a dump validates back equal."""
        data = handler(self)
        if isinstance(data, dict):
            for key in BARE_FRACTION_KEYS:
                value = data.get(key)
                if isinstance(value, float) and key not in self._bare:
                    data[key] = _percent_text(value)
        return data

    @property
    def bare_fractions(self) -> tuple[str, ...]:
        """The risk limits given as a bare fraction (``max_p_loss: 0.01`` is 1 %), in order.

        The outputs say so beside the limit ("at most 1.0% (given as the fraction 0.01, not
        0.01%)"): an admin who meant 0.01 % and left the sign out sees it where it counts.
        """
        return tuple(key for key in BARE_FRACTION_KEYS if key in self._bare)

    @model_validator(mode="after")
    def _one_risk_limit(self) -> TargetSpec:
        if self.max_p_loss is not None and self.min_nines is not None:
            raise FieldError(
                "give one of max_p_loss (e.g. 0.01%) or min_nines (e.g. 4), not both",
                "min_nines",
            )
        return self

    @property
    def p_loss_limit(self) -> float | None:
        """The largest acceptable P(loss): ``max_p_loss``, ``10 ** -min_nines``, or None."""
        if self.max_p_loss is not None:
            return self.max_p_loss
        if self.min_nines is not None:
            return float(10.0**-self.min_nines)
        return None

    @property
    def limits_risk(self) -> bool:
        """Whether the section gives a risk target: P(loss), nines, P(group lost), P(unavail.)."""
        return (
            self.p_loss_limit is not None
            or self.max_p_group_lost is not None
            or self.max_p_unavailable is not None
        )

    def core_target(self, default: Target) -> Target:
        """This target as the core's :class:`~planner.core.design.recommend.Target`.

        Without a loss target the risk limits are ``default``'s (as with no section).
        """
        if not self.limits_risk:
            return Target(
                default.max_p_loss, self.max_drives, self.max_cost, default.max_p_group_lost
            )
        return Target(
            self.p_loss_limit,
            self.max_drives,
            self.max_cost,
            self.max_p_group_lost,
            self.max_p_unavailable,
        )


def _sorted_unique(values: list[int]) -> list[int]:
    return sorted(set(values))


class SearchSpec(FrozenModel):
    """The layouts ``planner recommend`` considers."""

    mirrors: bool = Field(default=True, strict=True, description="RAID 10 and 3-way mirrors.")
    parity: list[Count] = Field(
        default=[1, 2, 3],
        min_length=1,
        max_length=MAX_PARITY,
        description="Parity drives per group of the parity layouts (k).",
    )
    group_sizes: list[Count] = Field(
        default=[3, 30],
        min_length=2,
        max_length=2,
        description="Smallest and largest parity group, parity included: [min, max].",
    )
    declustered: bool | None = Field(
        default=None,
        strict=True,
        description="Declustered pools (dRAID); default: when the scenario has one.",
    )
    raidz: RaidzChoice = Field(
        default=None,
        description="Parity groups as ZFS RAID-Z (raidz1-3, sized in stripe I/Os): true for "
        "RAID-Z instead of hardware RAID 5, 6 and triple parity, false for hardware RAID "
        "groups and no RAID-Z, both for both (mirrors and dRAID pools as their own keys "
        "say); default: RAID-Z when the scenario has a RAID-Z layout, both when it also "
        "has a hardware parity layout (RAID 4, 5, 6, DP, triple parity).",
    )
    draid_data: list[Count] = Field(
        default=[4, 8, 16], min_length=1, description="Data blocks per stripe of the pools."
    )
    draid_children: list[Count] | None = Field(
        default=None,
        min_length=1,
        description="Drives per pool; default: widths across the range d + p + s to 255, "
        "the pools right-sized for the need included.",
    )
    draid_spares: list[Count] = Field(
        default=[1, 2], min_length=1, description="Distributed spares per pool."
    )
    members_per_enclosure: list[Count] | None = Field(
        default=None,
        min_length=1,
        max_length=12,
        description="Placements to search beside the layouts, as drives of a group per "
        "enclosure (e.g. [1, 2, 3, 4, 6, 12]): every layout is tried in each; needs an "
        "enclosures section. Default: the enclosures section's own placement.",
    )
    write_penalty: float | None = positive(
        default=None,
        le=100,
        description="Disk I/Os per host write of every parity layout searched, for sizing "
        "(e.g. 1 for arrays that write full stripes, such as NetApp RAID-DP); not of "
        "mirrors, nor of RAID-Z groups and pools, which count stripe I/Os; default by "
        "preset: RAID 5 4, RAID 6 6, triple parity 8 (docs/sizing.md).",
    )

    @model_validator(mode="before")
    @classmethod
    def _ranges(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        for key, low, high in (
            ("parity", 1, MAX_PARITY),
            ("group_sizes", 2, MAX_GROUP_SIZE_SEARCHED),
            ("draid_data", 1, MAX_CHILDREN),
            ("draid_children", 3, MAX_CHILDREN),
            ("draid_spares", 0, MAX_CHILDREN),
            ("members_per_enclosure", 1, MAX_GROUP_SIZE_SEARCHED),
        ):
            values = data.get(key)
            if not isinstance(values, list):
                continue
            for value in values:
                number = isinstance(value, int | float) and not isinstance(value, bool)
                if number and not low <= value <= high:
                    raise FieldError(
                        f"{value:g} is out of range: each must be from {low} to {high}", key
                    )
        sizes = data.get("group_sizes")
        if isinstance(sizes, list) and len(sizes) != 2:
            raise FieldError(
                f"group_sizes takes two numbers, [min, max] (e.g. [3, 30]), got {len(sizes)}",
                "group_sizes",
            )
        sizes = sizes if isinstance(sizes, list) else [0, 0]
        if all(isinstance(v, int | float) for v in sizes) and sizes[0] > sizes[1]:
            raise FieldError(
                f"group_sizes is [min, max]: {sizes[0]:g} is above {sizes[1]:g}", "group_sizes"
            )
        return data

    def space(
        self,
        scenario_has_pools: bool,
        scenario_has_raidz: bool = False,
        scenario_has_hardware: bool = True,
    ) -> SearchSpace:
        """The core's search space; pools, and RAID-Z, by default when the scenario has one.

        Hardware parity groups unless ``raidz`` is true, or by default when the scenario's
        parity layouts are all RAID-Z: a scenario weighing ZFS against hardware RAID was
        searched in RAID-Z only (a newcomer's find).
        """
        declustered = scenario_has_pools if self.declustered is None else self.declustered
        if self.raidz is None:
            raidz, hardware = scenario_has_raidz, not scenario_has_raidz or scenario_has_hardware
        else:
            raidz, hardware = self.raidz in (True, "both"), self.raidz in (False, "both")
        return SearchSpace(
            mirrors=self.mirrors,
            parities=tuple(_sorted_unique(self.parity)),
            min_group_size=self.group_sizes[0],
            max_group_size=self.group_sizes[1],
            declustered=declustered,
            draid_data=tuple(_sorted_unique(self.draid_data)),
            draid_children=(
                None if self.draid_children is None else tuple(_sorted_unique(self.draid_children))
            ),
            draid_spares=tuple(_sorted_unique(self.draid_spares)),
            raidz=raidz,
            hardware=hardware,
        )
