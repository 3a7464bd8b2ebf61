"""The assumptions a result was computed from, as every export prints them.

A table of probabilities means little without the rates behind it: every export (Markdown
caption, CSV header comment, JSON ``inputs``) and the TUI's Markdown export carry these
values in the scenario file's own names and units, plus the ``--set`` overrides given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.core.arrays.cost import CostPrices


@dataclass(frozen=True)
class Inputs:
    """The scenario values behind a result, in the scenario file's units.

    Attributes:
        scenario: the scenario's name.
        failure_field: which operational failure rate the file gives: ``drive.arr``,
            ``drive.afr`` or ``drive.mtbf_hours``.
        failure_value: its value (a fraction per year, or hours for an MTBF).
        latent_defects_per_hour: latent defects per drive-hour (given, or read errors per
            byte x bytes read per hour).
        rebuild_hours: mean restore time (h), given or from the rebuild model.
        rebuild_mb_per_s: the rebuild model's rate (MB/s), or None when hours are given.
        scrub_hours: mean time for a scrub to find a latent defect (h).
        mission_years: mission length (years of 8,760 h).
        data_disks: data drives of the aggregate (``aggregate.data_disks``).
        capacity_tb: TB per drive, or None when the scenario does not say.
        overrides: the ``--set KEY=VALUE`` overrides applied, as given.
        parallel_rebuilds: ``restore.parallel_rebuilds``: False (one at a time), True (all
            failed drives at once) or a number of rebuild streams.
        on_unreadable_sector: ``restore.on_unreadable_sector``: ``lose-sectors`` (the
            default) or ``fail-rebuild`` (a loss with a latent defect counts as the group's).
        prices: the drive's price and power and the ``costs`` section, when the scenario
            prices its drives (None otherwise: the exports then name no price).
        latent_defects_source: where a derived (or overriding) latent-defect rate comes from,
            e.g. ``8 x drive.unrecoverable_read_errors_per_bit x NS3574's field read rate``;
            None for a rate the file gives alone.
        sized_for: what the results size each aggregate for (a workload, a usable-TB
            target), when they do; the summary then says so instead of counting
            ``aggregate.data_disks``, which they do not use.
        hot_spares: dedicated hot spares counted in every drive count
            (``aggregate.hot_spares``).
    """

    scenario: str
    failure_field: str
    failure_value: float
    latent_defects_per_hour: float
    rebuild_hours: float
    rebuild_mb_per_s: float | None
    scrub_hours: float
    mission_years: float
    data_disks: int
    capacity_tb: float | None
    overrides: tuple[str, ...] = field(default=())
    parallel_rebuilds: bool | int = False
    on_unreadable_sector: str = "lose-sectors"
    prices: CostPrices | None = None
    sized_for: str | None = None
    latent_defects_source: str | None = None
    hot_spares: int = 0

    def failure_text(self) -> str:
        """``ARR 1.9%/yr``, ``AFR 2%/yr`` or ``MTBF 1,200,000 h``."""
        if self.failure_field == "drive.mtbf_hours":
            return f"MTBF {self.failure_value:,.6g} h"
        name = self.failure_field.rsplit(".", 1)[-1].upper()
        return f"{name} {100 * self.failure_value:.6g}%/yr"

    def rebuild_text(self) -> str:
        """``rebuild 12 h`` or ``rebuild 3.09 h (27 MB/s)``."""
        hours = f"rebuild {self.rebuild_hours:,.4g} h"
        if self.rebuild_mb_per_s is None:
            return hours
        return f"{hours} ({self.rebuild_mb_per_s:g} MB/s)"

    def parallel_text(self) -> list[str]:
        """``[]`` for one rebuild at a time (the paper's model), else how many at once."""
        if self.parallel_rebuilds is False or self.parallel_rebuilds == 1:
            return []
        if self.parallel_rebuilds is True:
            return ["parallel rebuilds (all failed drives)"]
        return [f"{self.parallel_rebuilds} parallel rebuilds"]

    def summary(self) -> str:
        """The inputs in one line, e.g. for a Markdown caption or a CSV comment."""
        parts = [
            self.failure_text(),
            f"latent defects {_rate(self.latent_defects_per_hour)}/drive-h"
            + (f" ({self.latent_defects_source})" if self.latent_defects_source else ""),
            self.rebuild_text(),
            f"scrub {self.scrub_hours:g} h",
            *self.parallel_text(),
            *(
                ["an unreadable sector fails the rebuild"]
                if self.on_unreadable_sector == "fail-rebuild"
                else []
            ),
            f"mission {self.mission_years:g} years",
            (
                f"{self.data_disks:,} data drives"
                if self.sized_for is None
                else f"data drives sized for {self.sized_for}"
            ),
        ]
        if self.hot_spares:
            spares = "spare" if self.hot_spares == 1 else "spares"
            parts.append(f"{self.hot_spares:,} dedicated hot {spares} in every drive count")
        if self.capacity_tb is not None:
            parts.append(f"{self.capacity_tb:g} TB drives")
        parts += self.prices_text()
        text = "Inputs: " + ", ".join(parts) + "."
        if self.overrides:
            text += " Overrides: " + " ".join(f"--set {o}" for o in self.overrides) + "."
        return text

    def prices_text(self) -> list[str]:
        """``["400 USD a drive", "8 W a drive", "0.15 USD/kWh"]``, the prices given."""
        prices = self.prices
        if prices is None:
            return []
        unit = f" {prices.currency}" if prices.currency else ""
        parts = []
        if prices.drive_price is not None:
            parts.append(f"{prices.drive_price:,g}{unit} a drive")
        if prices.per_group_cost:
            parts.append(f"{prices.per_group_cost:,g}{unit} a group")
        if prices.drive_watts is not None:
            parts.append(f"{prices.drive_watts:g} W a drive")
        if prices.energy_per_kwh is not None:
            parts.append(f"{prices.energy_per_kwh:g}{unit}/kWh")
        return parts

    def as_dict(self) -> dict[str, Any]:
        """The JSON ``inputs`` object: raw values in the file's units, and the overrides.

        With prices, a ``costs`` object: ``price``, ``watts`` (the drive's),
        ``energy_per_kwh``, ``per_group`` and ``currency`` (null when not given).
        """
        key = self.failure_field.rsplit(".", 1)[-1]
        priced = self.prices
        costs = (
            {}
            if priced is None
            else {
                "costs": {
                    "price": priced.drive_price,
                    "watts": priced.drive_watts,
                    "energy_per_kwh": priced.energy_per_kwh,
                    "per_group": priced.per_group_cost or None,
                    "currency": priced.currency,
                }
            }
        )
        return {
            "scenario": self.scenario,
            key: self.failure_value,
            "latent_defects_per_hour": self.latent_defects_per_hour,
            **(
                {"latent_defects_source": self.latent_defects_source}
                if self.latent_defects_source
                else {}
            ),
            "rebuild_hours": self.rebuild_hours,
            "rebuild_mb_per_s": self.rebuild_mb_per_s,
            "scrub_hours": self.scrub_hours,
            "parallel_rebuilds": self.parallel_rebuilds,
            "on_unreadable_sector": self.on_unreadable_sector,
            "mission_years": self.mission_years,
            "data_disks": self.data_disks,
            "hot_spares": self.hot_spares,
            "capacity_tb": self.capacity_tb,
            **costs,
            "overrides": list(self.overrides),
        }

    def csv_comment(self) -> str:
        """Comment lines to put above a CSV header (``# Inputs: ...``), newline-ended.

        Spreadsheets and pandas (``comment="#"``) skip them; see docs/commands.md.
        """
        return f"# {self.summary()}\n"


def _rate(per_hour: float) -> str:
    """A latent defect rate as the tables show it: ``0.000108``, ``0``."""
    from planner.core.design.sweep import Parameter
    from planner.report.fields import field_for

    return field_for(Parameter.LATENT_DEFECTS_PER_HOUR).text(per_hour)


def with_inputs(document: dict[str, Any], inputs: Inputs | None) -> dict[str, Any]:
    """``document`` with an ``inputs`` key added (nothing removed), when known."""
    if inputs is None:
        return document
    return {**document, "inputs": inputs.as_dict()}


def inputs_lines(inputs: Inputs | None, extra: Sequence[str] = ()) -> list[str]:
    """The inputs' one-line summary (when known) followed by ``extra`` lines."""
    return ([inputs.summary()] if inputs is not None else []) + list(extra)
