"""The assumptions a result was computed from, as every export prints them.

A table of probabilities means little without the rates behind it: every export (Markdown
caption, CSV header comment, JSON ``inputs``) and the TUI's Markdown export carry the
:class:`~planner.analysis.inputs.Inputs` of the result in the scenario file's own names
and units, plus the ``--set`` overrides given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.analysis.inputs import Inputs


def failure_text(inputs: Inputs) -> str:
    """``ARR 1.9%/yr``, ``AFR 2%/yr`` or ``MTBF 1,200,000 h``."""
    if inputs.failure_field == "drive.mtbf_hours":
        return f"MTBF {inputs.failure_value:,.6g} h"
    name = inputs.failure_field.rsplit(".", 1)[-1].upper()
    return f"{name} {100 * inputs.failure_value:.6g}%/yr"


def rebuild_text(inputs: Inputs) -> str:
    """``rebuild 12 h``, ``rebuild 3.09 h (27 MB/s)``, or with what slows and delays it.

    ``rebuild 77.2 h (285 MB/s slowed x3.96 by restore.load: busy)``: 20 TB at 285 MB/s is
    19.5 h.
    """
    hours = f"rebuild {inputs.rebuild_hours:,.4g} h"
    if inputs.rebuild_mb_per_s is None:
        return hours
    model = f"{inputs.rebuild_mb_per_s:g} MB/s"
    if inputs.rebuild_slowed_by is not None:
        model += f" slowed x{inputs.rebuild_load_factor:.3g} by {inputs.rebuild_slowed_by}"
    if inputs.replace_delay_hours:
        model += f", after {inputs.replace_delay_hours:g} h to replace the drive"
    return f"{hours} ({model})"


def defects_text(inputs: Inputs) -> str:
    """``latent defects 9e-05/drive-h (source)``, or that each sized aggregate takes its own.

    An aggregate sized for the workload whose reads make the rate spreads them over its own
    data drives (:func:`planner.scenario.defects.workload_read_defects`).
    """
    rate = f"{_rate(inputs.latent_defects_per_hour)}/drive-h"
    source = inputs.latent_defects_source
    if inputs.sized_for is not None and inputs.latent_defects_from_workload:
        return (
            f"latent defects {source or 'from the workload reads'} over each aggregate's own "
            f"data drives and their groups' drives ({_rate(inputs.latent_defects_per_hour)}/data "
            f"drive-h over aggregate.data_disks, {inputs.data_disks:,})"
        )
    if inputs.latent_defects_from_workload:
        # a data drive's: each layout's chain spreads it over its groups' drives
        return (
            f"latent defects {_rate(inputs.latent_defects_per_hour)}/data drive-h"
            + (f" ({source})" if source else "")
            + ", spread over each group's drives"
        )
    return f"latent defects {rate}" + (f" ({source})" if source else "")


def parallel_text(inputs: Inputs) -> list[str]:
    """``[]`` for one rebuild at a time (the paper's model), else how many at once."""
    if inputs.parallel_rebuilds is False or inputs.parallel_rebuilds == 1:
        return []
    if inputs.parallel_rebuilds is True:
        return ["parallel rebuilds (all failed drives)"]
    return [f"{inputs.parallel_rebuilds} parallel rebuilds"]


def inputs_summary(inputs: Inputs) -> str:
    """The inputs in one line, e.g. for a Markdown caption or a CSV comment."""
    parts = [
        failure_text(inputs),
        defects_text(inputs),
        rebuild_text(inputs),
        f"scrub {inputs.scrub_hours:g} h",
        *parallel_text(inputs),
        *(
            ["an unreadable sector fails the rebuild"]
            if inputs.on_unreadable_sector == "fail-rebuild"
            else []
        ),
        f"mission {inputs.mission_years:g} years",
        (
            f"{inputs.data_disks:,} data drives"
            if inputs.sized_for is None
            else f"data drives sized for {inputs.sized_for}"
        ),
    ]
    if inputs.hot_spares:
        spares = "spare" if inputs.hot_spares == 1 else "spares"
        text = f"{inputs.hot_spares:,} dedicated hot {spares} in every drive count"
        if inputs.replace_delay_hours:  # the spares shorten the wait (docs/sizing.md)
            taken = "it is" if inputs.hot_spares == 1 else "all are"
            text += f" (a failure waits the {inputs.replace_delay_hours:g} h only if {taken} taken)"
        parts.append(text)
    if inputs.capacity_tb is not None:
        # the stripe unit counts only where the NOMDL does: with a capacity
        parts.append(f"{inputs.capacity_tb:g} TB drives ({inputs.usable_fraction * 100:g}% usable)")
        parts.append(f"{inputs.stripe_unit_kib:,} KiB stripe unit")
    parts += prices_text(inputs)
    parts += correlation_text(inputs)
    parts += enclosures_text(inputs)
    if inputs.ageing_text is not None:
        parts.append(inputs.ageing_text)
    text = "Inputs: " + ", ".join(parts) + "."
    if inputs.overrides:
        text += " Overrides: " + " ".join(f"--set {o}" for o in inputs.overrides) + "."
    return text


def correlation_text(inputs: Inputs) -> list[str]:
    """``["correlated failures: degraded x2, 0.05 shocks/group-yr failing 10% of drives"]``."""
    if inputs.correlation is None:
        return []
    multiplier, shocks, probability = inputs.correlation
    parts = [f"degraded x{multiplier:g}"]
    if shocks > 0:
        parts.append(f"{shocks:g} shocks/group-yr failing {100 * probability:.4g}% of drives each")
    return ["correlated failures: " + ", ".join(parts)]


def enclosures_text(inputs: Inputs) -> list[str]:
    """``["enclosures: 0.1 failures/yr each, repaired in 24 h, 2 drives of a group in each"]``."""
    if inputs.enclosures is None:
        return []
    given = dict(inputs.enclosures)
    members = given.get("members_per_enclosure")
    rule = (
        f"{members:g} drives of a group in each"
        if members is not None
        else f"each group over {given.get('spread', 0):g}"
    )
    rate, hours = given.get("failures_per_year", 0.0), given.get("repair_hours", 0.0)
    return [f"enclosures: {rate:g} failures/yr each, repaired in {hours:g} h, {rule}"]


def prices_text(inputs: Inputs) -> list[str]:
    """``["400 USD a drive", "8 W a drive", "0.15 USD/kWh"]``, the prices given."""
    prices = inputs.prices
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


def inputs_record(inputs: Inputs) -> dict[str, Any]:
    """The JSON ``inputs`` object: raw values in the file's units, and the overrides.

    With prices, a ``costs`` object: ``price``, ``watts`` (the drive's),
    ``energy_per_kwh``, ``per_group`` and ``currency`` (null when not given).
    """
    key = inputs.failure_field.rsplit(".", 1)[-1]
    priced = inputs.prices
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
        "scenario": inputs.scenario,
        key: inputs.failure_value,
        "latent_defects_per_hour": inputs.latent_defects_per_hour,
        **(
            {"latent_defects_source": inputs.latent_defects_source}
            if inputs.latent_defects_source
            else {}
        ),
        "rebuild_hours": inputs.rebuild_hours,
        "rebuild_mb_per_s": inputs.rebuild_mb_per_s,
        **_rebuild_model_record(inputs),
        "scrub_hours": inputs.scrub_hours,
        "parallel_rebuilds": inputs.parallel_rebuilds,
        "on_unreadable_sector": inputs.on_unreadable_sector,
        "mission_years": inputs.mission_years,
        "data_disks": inputs.data_disks,
        "hot_spares": inputs.hot_spares,
        "capacity_tb": inputs.capacity_tb,
        "usable_fraction": inputs.usable_fraction,
        "stripe_unit_kib": inputs.stripe_unit_kib,
        **costs,
        **(
            {}
            if inputs.correlation is None
            else {
                "correlation": dict(
                    zip(
                        ("degraded_multiplier", "shocks_per_year", "shock_drive_probability"),
                        inputs.correlation,
                        strict=True,
                    )
                )
            }
        ),
        **({} if inputs.enclosures is None else {"enclosures": dict(inputs.enclosures)}),
        **({} if inputs.ageing is None else {"ageing": inputs.ageing}),
        "overrides": list(inputs.overrides),
    }


def _rebuild_model_record(inputs: Inputs) -> dict[str, float]:
    """``rebuild_load_factor`` when a load slows the rate, ``replace_delay_hours`` if given."""
    record = {}
    if inputs.rebuild_slowed_by is not None:
        record["rebuild_load_factor"] = inputs.rebuild_load_factor
    if inputs.replace_delay_hours:
        record["replace_delay_hours"] = inputs.replace_delay_hours
    return record


def csv_comment(inputs: Inputs) -> str:
    """Comment lines to put above a CSV header (``# Inputs: ...``), newline-ended.

    Spreadsheets and pandas (``comment="#"``) skip them; see docs/commands.md.
    """
    return f"# {inputs_summary(inputs)}\n"


def _rate(per_hour: float) -> str:
    """A latent defect rate as the tables show it: ``0.000108``, ``0``."""
    from planner.analysis.varied_fields import field_for
    from planner.core.design.sweep import Parameter
    from planner.report.field_values import field_text

    return field_text(field_for(Parameter.LATENT_DEFECTS_PER_HOUR), per_hour)


def with_inputs(document: dict[str, Any], inputs: Inputs | None) -> dict[str, Any]:
    """``document`` with an ``inputs`` key added (nothing removed), when known."""
    if inputs is None:
        return document
    return {**document, "inputs": inputs_record(inputs)}


def titled(title: str, inputs: Inputs | None) -> str:
    """``title`` with the ``--set`` overrides it was computed with, when there are any.

    A scenario's name often states its inputs ("1% ARR"); under an override the heading
    would otherwise contradict the figures below it.
    """
    if inputs is None or not inputs.overrides:
        return title
    return f"{title} (with --set {', '.join(inputs.overrides)})"


def inputs_lines(inputs: Inputs | None, extra: Sequence[str] = ()) -> list[str]:
    """The inputs' one-line summary (when known) followed by ``extra`` lines."""
    return ([inputs_summary(inputs)] if inputs is not None else []) + list(extra)
