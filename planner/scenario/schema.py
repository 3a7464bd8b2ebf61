"""Pydantic models of a scenario file: drive, restore times, aggregate, layouts, workload.

Every field states its unit. Rates follow NS3574 ("Exchange Server 2007 and IBM System
Storage N series with RAID-DP", 2008): an annualized return rate of 1.9%, 1.08e-4 latent
defects per drive-hour, a mean rebuild time of 12 h and a mean scrub time of 168 h, over a
mission of 5 years.

The models only validate; converting to the core's per-hour rates and layouts happens in
:meth:`Scenario.rates` and :meth:`Scenario.core_layouts` (and, for sizing,
:meth:`Scenario.core_drive` and :meth:`Scenario.write_penalties`).
"""

from __future__ import annotations

from pydantic import ConfigDict, Field, ValidationInfo, model_validator

from planner.core.arrays.cost import CostPrices
from planner.core.arrays.layouts import Layout
from planner.core.arrays.rebuild import DEFAULT_USABLE_FRACTION, Drive
from planner.core.markov.ageing import Ageing as CoreAgeing
from planner.core.markov.rates import HOURS_PER_YEAR, Rates
from planner.core.markov.workload_reads import WorkloadReads
from planner.scenario.ageing import Ageing, check_ageing_rate
from planner.scenario.aggregate import Aggregate
from planner.scenario.base import DisplayName, FieldError, FrozenModel, at_least, meta
from planner.scenario.baseline import check_baseline
from planner.scenario.correlation import Correlation
from planner.scenario.costs import Costs, check_costs, cost_prices
from planner.scenario.defects import (
    LatentDefectRate,
    check_derived_rate,
    latent_defect_rate,
    workload_read_defects,
)
from planner.scenario.distributions import Distributions
from planner.scenario.drive import DriveSpec
from planner.scenario.enclosures import EnclosureSpec, check_enclosure_chains
from planner.scenario.errors import shown
from planner.scenario.layout import LayoutSpec
from planner.scenario.limits import MIN_MISSION_YEARS
from planner.scenario.restore import Restore
from planner.scenario.target import SearchSpec, TargetSpec
from planner.scenario.workload import Workload

__all__ = [
    "Costs",
    "DriveSpec",
    "FieldError",
    "LayoutSpec",
    "Restore",
    "Scenario",
    "Workload",
]


class Scenario(FrozenModel):
    """A whole scenario: drive, restore times, aggregate, the layouts to compare, a baseline."""

    model_config = ConfigDict(title="planner scenario")

    name: DisplayName = Field(
        default="Unnamed scenario",
        strict=True,
        min_length=1,
        description="Title shown in reports.",
    )
    mission_years: float = at_least(
        MIN_MISSION_YEARS,
        default=5.0,
        le=100,
        description="Mission length (years of 8,760 h; NS3574: 5).",
        json_schema_extra=meta("Mission yr", "years", "5"),
    )
    drive: DriveSpec = Field(
        description="The drive: its failure and latent defect rates (and capacity).",
        examples=[{"arr": "1.9%", "latent_defects_per_hour": 1.08e-4, "capacity_tb": 4}],
    )
    restore: Restore = Field(
        description="Mean times to rebuild a failed drive and to scrub a latent defect.",
        examples=[{"rebuild_hours": 12, "scrub_hours": 168}],
    )
    aggregate: Aggregate = Field(
        description="The aggregate every layout must hold.", examples=[{"data_disks": 42}]
    )
    layouts: list[LayoutSpec] = Field(
        min_length=1,
        max_length=200,
        description="Layouts to compare, side by side.",
        examples=[[{"raid": "raid5", "group_size": 8}, {"raid": "raid-dp", "group_size": 16}]],
    )
    baseline: str | None = Field(
        default=None,
        strict=True,
        description="Label of the layout relative risks are measured against; "
        "default the first layout.",
    )
    workload: Workload | None = Field(
        default=None,
        description="What `planner size` sizes each layout for: a mailbox workload (users, "
        "iops_per_user, mailbox_mb, ...) or a plain one (iops, read_fraction, capacity_tb).",
    )
    costs: Costs | None = Field(
        default=None,
        description="Prices besides drive.price and drive.watts: energy_per_kwh, per_group "
        "(enclosure share per RAID group), currency (a label).",
        examples=[{"energy_per_kwh": 0.30, "per_group": 2000, "currency": "USD"}],
    )
    target: TargetSpec | None = Field(
        default=None,
        description="What `planner recommend` looks for: usable_tb, max_p_loss or "
        "min_nines, and optionally max_drives and max_cost.",
    )
    search: SearchSpec | None = Field(
        default=None,
        description="The layouts `planner recommend` considers (mirrors, parity, "
        "group_sizes, declustered, draid_data, draid_children, draid_spares).",
    )
    distributions: Distributions | None = Field(
        default=None,
        description="Time distributions for `planner simulate`: the preset elerath2009, or a "
        "mapping of operational_failure, restoration and scrub (each {weibull: {shape, "
        "scale_hours, location_hours}} or {exponential: {mean_hours}}) and "
        "latent_defects_per_hour. Default: the constant rates as exponentials.",
    )

    correlation: Correlation | None = Field(
        default=None,
        description="Correlated failures: degraded_multiplier (each working drive fails m "
        "times as often while a drive of the group is down), shocks_per_year and "
        "shock_drive_probability (common-cause shocks, each failing every working drive "
        "with that probability, 1.2% unless given). Default: independent drives "
        "(docs/correlated.md).",
        examples=[{"degraded_multiplier": 2, "shocks_per_year": 0.1}],
    )
    ageing: Ageing | None = Field(
        default=None,
        description="A failure rate that depends on the drives' age: arr_by_year (ARR in "
        "each year of service, the last holding on) or weibull: {shape, scale_hours} (as "
        "planner fit prints them), and drive_age_years_at_start. The exact chain's P(loss) "
        "with its bracket is shown beside the constant-rate figure (docs/ageing.md).",
        examples=[{"arr_by_year": ["2.1%", "3.5%", "4.2%"], "drive_age_years_at_start": 1}],
    )

    enclosures: EnclosureSpec | None = Field(
        default=None,
        description="Failure domains: enclosures (shelves, controllers) whose failure takes "
        "their drives offline until repaired: failures_per_year (per enclosure), "
        "repair_hours, and members_per_enclosure (drives of a group per enclosure) or spread "
        "(enclosures per group). Default: none (docs/domains.md).",
        examples=[{"failures_per_year": 0.1, "repair_hours": 24, "members_per_enclosure": 2}],
    )

    @model_validator(mode="after")
    def _labels(self, info: ValidationInfo) -> Scenario:
        seen: dict[str, int] = {}
        for i, layout in enumerate(self.layouts):
            if layout.label in seen:
                raise FieldError(
                    f"duplicate label {shown(layout.label)} (also layouts[{seen[layout.label]}]); "
                    "give one of them a different label",
                    "layouts",
                    i,
                    "label",
                )
            seen[layout.label] = i
        if self.baseline is not None:
            aliases = {layout.default_label: layout.label for layout in self.layouts}
            check_baseline(self.baseline, list(seen), info.context, aliases)
        return self

    @model_validator(mode="after")
    def _ageing_rates(self) -> Scenario:
        """The ageing law's rate stays below the limit over the mission (wear-out: its end)."""
        ageing = self.core_ageing()
        if ageing is not None:
            check_ageing_rate(ageing, self.mission_hours)
        return self

    @model_validator(mode="after")
    def _prices(self) -> Scenario:
        check_costs(self.drive, self.costs)
        return self

    @model_validator(mode="after")
    def _enclosure_chains(self) -> Scenario:
        if self.enclosures is not None and self.enclosures.active:
            check_enclosure_chains(
                self.enclosures, self.layouts, correlated=self.correlated, ageing=self.ageing
            )
        return self

    @model_validator(mode="after")
    def _sizing_inputs(self) -> Scenario:
        self.rebuild_hours  # noqa: B018 -- the rebuild model needs a capacity and a rate
        check_derived_rate(self.latent_defect_rate, self.workload)
        if self.workload is not None:
            if self.drive.capacity_tb is None:
                raise FieldError(
                    "sizing a workload needs drive.capacity_tb (TB per drive); add it under drive",
                    "drive",
                    "capacity_tb",
                )
            if self.drive.iops is None:
                raise FieldError(
                    "sizing a workload needs the drive's IOPS: give drive.class (7.2k, 10k, "
                    "15k or ssd) or drive.iops_per_drive",
                    "drive",
                    "class",
                )
        return self

    @property
    def mission_hours(self) -> float:
        """Mission length in hours (years x 8,760 h)."""
        return self.mission_years * HOURS_PER_YEAR

    def rates(self) -> Rates:
        """The per-hour rates of the Markov model (lambda_op, lambda_ld, mu_op, mu_scrub).

        With a ``correlation`` section, its degraded multiplier, shock rate and probability;
        with ``enclosures``, their failures, repairs and placement; the aggregate's hot
        spares, which each layout's chain takes in with its groups (``Layout.chain_rates``);
        a latent-defect rate from the workload's reads is a data drive's, which each layout's
        chain spreads over its groups' drives (``Rates.defects_per_data_drive``).
        """
        return Rates(
            op_failures_per_hour=self.drive.op_failures_per_hour,
            latent_defects_per_hour=self.latent_defects_per_hour,
            rebuild_hours=self.rebuild_hours,
            scrub_hours=self.restore.scrub_hours,
            rebuild_streams=self.restore.rebuild_streams,
            replace_delay_hours=self.restore.delay_hours,
            hot_spares=self.aggregate.hot_spares,
            defects_per_data_drive=self.latent_defect_rate.bytes_source == "workload",
            workload_reads=self._workload_reads(),
            **({} if self.correlation is None else self.correlation.core_values()),
            enclosures=None if self.enclosures is None else self.enclosures.core_enclosures(),
        )

    def core_ageing(self) -> CoreAgeing | None:
        """The drives' hazard law by age and their age at the start (h); None without ageing.

        A Weibull without ``scale_hours`` has the drive's own rate in its first year.
        """
        if self.ageing is None:
            return None
        return self.ageing.core(self.drive.op_failures_per_hour)

    def _workload_reads(self) -> WorkloadReads | None:
        """The workload's reads behind a rate made from them; None otherwise.

        Each aggregate's own count of data drives shares them (``reads_spread``).
        """
        if self.latent_defect_rate.bytes_source != "workload":
            return None
        found = workload_read_defects(self.drive, self.workload)
        return None if found is None else found.reads()

    @property
    def correlated(self) -> bool:
        """Drives do not fail independently: a ``correlation`` section that changes the risk."""
        return self.correlation is not None and self.correlation.correlated

    @property
    def rebuild_hours(self) -> float:
        """Mean restore time (hours): ``restore.rebuild_hours``, or the rebuild model's.

        The rebuild model's rate is ``restore.rebuild_mb_per_s``, else the drive's own
        ``sustained_mb_per_s`` (its spec sheet or catalogue model).
        """
        return self.restore.mean_restore_hours(
            self.drive.capacity_tb, self.drive.sustained_mb_per_s, self.drive.model
        )

    @property
    def rebuild_mb_per_s(self) -> float | None:
        """The rebuild model's rate (MB/s), or None when ``restore.rebuild_hours`` is given."""
        return self.restore.rebuild_rate_mb_per_s(self.drive.sustained_mb_per_s)

    @property
    def latent_defect_rate(self) -> LatentDefectRate:
        """Latent defects per drive-hour and where they come from (:mod:`planner.scenario.defects`).

        Given, or read errors per byte x the bytes one drive reads per hour (given, the
        workload's reads over ``aggregate.data_disks``, or NS3574's field figure); never the
        scrubs' reads: a scrub finds defects, it does not make them.
        """
        return latent_defect_rate(self.drive, self.workload, self.aggregate.data_disks)

    @property
    def latent_defects_per_hour(self) -> float:
        """Latent defects per drive-hour, lambda_ld (:attr:`latent_defect_rate`)."""
        return self.latent_defect_rate.per_hour

    def latent_defect_notes(self) -> list[str]:
        """The derived latent-defect rate's note (or an override's), else nothing.

        A rate given alone (the paper's scenarios) needs no note: the inputs line shows it.
        """
        defects = self.latent_defect_rate
        if not defects.shows_source:
            return []
        workload = self.workload
        read_iops = None if workload is None else workload.core_workload().read_iops
        size = None if workload is None else workload.io_bytes / 1e3
        return [defects.note(read_iops, size, self.drive.sustained_mb_per_s)]

    def capacity_notes(self) -> list[str]:
        """What the drive's capacity does and does not change, when a user might expect it.

        A fixed ``restore.rebuild_hours`` beside a ``drive.capacity_tb`` means the capacity
        changes the usable TB only, not the risk's rebuild window: the note says so and how to
        let it (issue 11).
        """
        notes = []
        capacity = self.drive.capacity_tb
        if capacity is not None and self.restore.rebuild_hours is not None:
            notes.append(
                f"Rebuild {self.restore.rebuild_hours:g} h as given: drive.capacity_tb "
                f"({capacity:g} TB) does not change it; to let it, give restore.rebuild_mb_per_s "
                "or drive.sustained_mb_per_s instead of restore.rebuild_hours (docs/drives.md)."
            )
        return notes

    @property
    def usable_fraction(self) -> float:
        """Share of a drive's capacity that stores data: ``drive.usable_fraction`` or 0.9."""
        fraction = self.drive.usable_fraction
        return DEFAULT_USABLE_FRACTION if fraction is None else fraction

    @property
    def usable_tb_per_drive(self) -> float | None:
        """TB of data one data drive stores: ``drive.capacity_tb`` x :attr:`usable_fraction`.

        The one meaning of usable capacity (issue 20): ``target.usable_tb``,
        ``workload.capacity_tb`` and every Usable TB column count in these. None when the
        drive's capacity is not given.
        """
        capacity = self.drive.capacity_tb
        return None if capacity is None else capacity * self.usable_fraction

    def core_drive(self) -> Drive:
        """The drive for sizing (checked on load when there is a workload).

        With the rebuild model it carries ``rebuild_mb_per_s``, so the sizing engine derives
        the same restore time as :attr:`rebuild_hours`.
        """
        capacity, iops = self.drive.capacity_tb, self.drive.iops
        if capacity is None or iops is None:
            raise ValueError("sizing needs drive.capacity_tb and drive.class or iops_per_drive")
        return Drive(
            capacity_tb=capacity,
            iops=iops,
            usable_fraction=self.usable_fraction,
            rebuild_mb_per_s=self.rebuild_mb_per_s,
        )

    def cost_prices(self) -> CostPrices | None:
        """The prices of :mod:`planner.core.arrays.cost`; None without a drive price or watts."""
        return cost_prices(self.drive, self.costs)

    def write_penalties(self) -> dict[str, float]:
        """Per-layout ``write_penalty`` overrides, by label (the others use the defaults)."""
        return {
            layout.label: layout.write_penalty
            for layout in self.layouts
            if layout.write_penalty is not None
        }

    def core_layouts(self) -> list[Layout]:
        """The layouts as the core's :class:`~planner.core.arrays.layouts.Layout` values."""
        return [layout.core_layout() for layout in self.layouts]

    def baseline_label(self) -> str:
        """Label of the baseline layout: ``baseline`` if given, else the first layout's."""
        return self.baseline if self.baseline is not None else self.layouts[0].label
