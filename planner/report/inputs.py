"""The assumptions a result was computed from, as every export prints them.

A table of probabilities means little without the rates behind it: every export (Markdown
caption, CSV header comment, JSON ``inputs``) and the TUI's Markdown export carry these
values in the scenario file's own names and units, plus the ``--set`` overrides given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


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
            f"latent defects {_rate(self.latent_defects_per_hour)}/drive-h",
            self.rebuild_text(),
            f"scrub {self.scrub_hours:g} h",
            *self.parallel_text(),
            f"mission {self.mission_years:g} years",
            f"{self.data_disks:,} data drives",
        ]
        if self.capacity_tb is not None:
            parts.append(f"{self.capacity_tb:g} TB drives")
        text = "Inputs: " + ", ".join(parts) + "."
        if self.overrides:
            text += " Overrides: " + " ".join(f"--set {o}" for o in self.overrides) + "."
        return text

    def as_dict(self) -> dict[str, Any]:
        """The JSON ``inputs`` object: raw values in the file's units, and the overrides."""
        key = self.failure_field.rsplit(".", 1)[-1]
        return {
            "scenario": self.scenario,
            key: self.failure_value,
            "latent_defects_per_hour": self.latent_defects_per_hour,
            "rebuild_hours": self.rebuild_hours,
            "rebuild_mb_per_s": self.rebuild_mb_per_s,
            "scrub_hours": self.scrub_hours,
            "parallel_rebuilds": self.parallel_rebuilds,
            "mission_years": self.mission_years,
            "data_disks": self.data_disks,
            "capacity_tb": self.capacity_tb,
            "overrides": list(self.overrides),
        }

    def csv_comment(self) -> str:
        """Comment lines to put above a CSV header (``# Inputs: ...``), newline-ended.

        Spreadsheets and pandas (``comment="#"``) skip them; see the README.
        """
        return f"# {self.summary()}\n"


def _rate(per_hour: float) -> str:
    """A small rate as the scenario files write it: ``1.08e-4``, ``0``."""
    if per_hour == 0:
        return "0"
    mantissa, exponent = f"{per_hour:.2e}".split("e")
    return f"{float(mantissa):g}e{int(exponent)}"


def with_inputs(document: dict[str, Any], inputs: Inputs | None) -> dict[str, Any]:
    """``document`` with an ``inputs`` key added (nothing removed), when known."""
    if inputs is None:
        return document
    return {**document, "inputs": inputs.as_dict()}


def inputs_lines(inputs: Inputs | None, extra: Sequence[str] = ()) -> list[str]:
    """The inputs' one-line summary (when known) followed by ``extra`` lines."""
    return ([inputs.summary()] if inputs is not None else []) + list(extra)
